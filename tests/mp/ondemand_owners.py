# pegfw.ondemand's owners, run on CPython and in the MicroPython VMs (tests/test_fw_ondemand.py):
# prints what is loaded after each step, one line each.
import sys

sys.path.insert(0, "firmware")
from pegfw import ondemand  # noqa: E402


def loaded(*names):
    return " ".join("1" if n in sys.modules else "0" for n in names)


ondemand.begin("request")
ondemand.load("pegfw.show_chase")  # the request's own code
ondemand.begin("show")
ondemand.load("pegfw.show_over")  # the show's, loaded while the request is still answered
ondemand.end("request")
print(loaded("pegfw.show_chase", "pegfw.show_over"), ondemand.live("request"), ondemand.live("show"))
ondemand.begin("job")
ondemand.load("pegfw.show_demo")  # a later owner's code...
ondemand.end("show")  # ... is not the show's to drop; the show's own is
print(loaded("pegfw.show_over", "pegfw.show_demo"))
ondemand.end("job")
ondemand.end("job")  # twice: nothing more
print(loaded("pegfw.show_demo"), ondemand.live("job"))
import pegfw.clock  # noqa: E402,F401  (loaded before any owner: nobody's to drop)
ondemand.begin("show")
ondemand.begin("show")  # begun again: the old one ends first
ondemand.end("show")
print(loaded("pegfw.clock"))
