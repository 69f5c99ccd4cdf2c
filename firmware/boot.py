# Runs once before USB starts: enable the protocol's data port beside the REPL console.
# usb_cdc alone: nothing here may depend on lib/ or the firmware's packages, so the data port
# comes up even when they are missing or broken (the host can still talk to, and redeploy, it).
import usb_cdc

usb_cdc.enable(console=True, data=True)
