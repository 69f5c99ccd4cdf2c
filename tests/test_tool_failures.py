"""A tool that is here but fails to build or install is a fault the tests report, never a reason to
skip: thumbvm's build and rp2040js's install say which it was, and the rp2040 runtime passes it on."""

import sys

import pytest

from pegboard.sim import thumbvm
from pegboard.sim.errors import SimError
from pegboard.sim.rp2040 import node


def test_a_thumbvm_build_step_that_fails_is_a_build_failure_not_a_missing_tool():
    with pytest.raises(thumbvm.BuildFailed, match="building thumbvm's test step failed"):
        thumbvm._run([sys.executable, "-c", "import sys; sys.exit(3)"], {}, "test step")
    with pytest.raises(thumbvm.Unavailable) as missing:
        thumbvm._run(["/nonexistent/zig"], {}, "test step")
    assert not isinstance(missing.value, thumbvm.BuildFailed)  # a tool that is not there: a skip


def test_an_npm_install_that_fails_is_an_install_failure_and_the_runtime_says_it_is_no_missing_tool(
        monkeypatch, tmp_path):
    failing_npm = [sys.executable, "-c", "import sys; print('npm ERR! 404'); sys.exit(1)"]
    monkeypatch.setattr(node, "node", lambda: (sys.executable, failing_npm))
    monkeypatch.setenv("PEGBOARD_CACHE", str(tmp_path))
    with pytest.raises(node.InstallFailed, match="installing rp2040js"):
        node.install()
    from pegboard.sim import simulator

    with pytest.raises(SimError) as e:
        simulator._rp2040_node()
    assert not e.value.missing
    def no_node():
        raise node.Unavailable("install Node.js")

    monkeypatch.setattr(node, "node", no_node)
    with pytest.raises(SimError) as e:
        simulator._rp2040_node()
    assert e.value.missing
