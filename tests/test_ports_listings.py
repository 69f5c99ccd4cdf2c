"""Finding a CircuitPython board's data port in `serial.tools.list_ports.comports()` listings as
pyserial 3.5 builds them on Linux (list_ports_linux.py), macOS (list_ports_osx.py: an Intel Mac,
where both ports of a board can carry the same interface name, and Apple Silicon, where none has
one) and Windows (list_ports_windows.py). The listings are modeled from pyserial's source and
CircuitPython's USB descriptors, not captured from hardware (docs/ports.md)."""

import argparse
import os

import pytest
import serial
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from pegboard.link import ports

# boards as CircuitPython's ports/raspberrypi/boards/*/mpconfigboard.mk name them (USB_VID,
# USB_PID, USB_PRODUCT, USB_MANUFACTURER); the serial number is the RP2040's 8-byte id in hex
PICO = dict(vid=0x239A, pid=0x80F4, product="Pico", manufacturer="Raspberry Pi", serial="E6614103E7452D2F")
FEATHER = dict(vid=0x239A, pid=0x80F2, product="Feather RP2040", manufacturer="Adafruit", serial="DF625857C74B4A2D")
XIAO = dict(vid=0x2886, pid=0x0042, product="Seeeduino XIAO RP2040", manufacturer="Seeed", serial="E66038B7136F8B2C")
PRO_MICRO = dict(vid=0x1B4F, pid=0x0026, product="Pro Micro RP2040", manufacturer="SparkFun", serial="E6605838830B6B2A")
# CircuitPython's interface names (shared-module/usb_cdc/__init__.c): the console's CDC function
# is interfaces 0 (control) and 1 (data), the data port's 2 and 3 (supervisor/shared/usb/usb_desc.c)
CONSOLE_CONTROL, DATA_CONTROL = "CircuitPython CDC control", "CircuitPython CDC2 control"
CONSOLE_DATA, DATA_DATA = "CircuitPython CDC data", "CircuitPython CDC2 data"


# -- Linux: list_ports_linux.SysFS -----------------------------------------------------------------
def linux_acm(device, board, usb_path, interface_number):
    """A CDC ACM tty: the kernel hangs it under the CDC function's control interface, so sysfs
    gives that interface's path ("1-1:1.2": config 1, interface 2) and its iInterface string.
    CircuitPython's device has several interfaces (bNumInterfaces > 1): `location` is the
    interface's path, not the device's."""
    control = {0: CONSOLE_CONTROL, 2: DATA_CONTROL}[interface_number]
    p = ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.serial_number = board["vid"], board["pid"], board["serial"]
    p.location = "%s:1.%d" % (usb_path, interface_number)
    p.manufacturer, p.product, p.interface = board["manufacturer"], board["product"], control
    p.apply_usb_info()
    return p


def linux_ftdi(device="/dev/ttyUSB0", usb_path="1-3"):
    """An FTDI FT232R adapter: usb-serial, one interface, so `location` is the device's path."""
    p = ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.serial_number, p.location = 0x0403, 0x6001, "A50285BI", usb_path
    p.manufacturer, p.product, p.interface = "FTDI", "FT232R USB UART", "FT232R USB UART"
    p.apply_usb_info()
    return p


def linux_builtin(device="/dev/ttyS0"):
    """A PC's own UART (subsystem pnp): no USB data at all."""
    p = ListPortInfo(device, skip_link_detection=True)
    p.description, p.hwid = os.path.basename(device), "PNP0501"
    return p


def linux_micropython_pico(device="/dev/ttyACM0", usb_path="1-4"):
    """A Pico running MicroPython (Raspberry Pi's VID, one CDC port named "Board CDC"): not ours."""
    p = ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.serial_number, p.location = 0x2E8A, 0x0005, "E660583883724A32", usb_path + ":1.0"
    p.manufacturer, p.product, p.interface = "MicroPython", "Board in FS mode", "Board CDC"
    p.apply_usb_info()
    return p


def linux_board(board, console, data, usb_path="1-1"):
    return [linux_acm(console, board, usb_path, 0), linux_acm(data, board, usb_path, 2)]


# -- macOS: list_ports_osx.comports ----------------------------------------------------------------
def location_to_string(location_id):
    """pyserial's own conversion of an IOKit locationID (list_ports_osx.location_to_string)."""
    out = ["{}-".format(location_id >> 24)]
    while location_id & 0xF00000:
        if len(out) > 1:
            out.append(".")
        out.append("{}".format((location_id >> 20) & 0xF))
        location_id <<= 4
    return "".join(out)


def mac_name(location_id, data_interface):
    """macOS names a CDC tty after the device's locationID and the interface number of the CDC
    function's data interface: 0x14200000 -> usbmodem14201 (the console), usbmodem14203 (data)."""
    return "/dev/cu.usbmodem%s0%d" % (("%x" % location_id).rstrip("0"), data_interface)


def mac_port(board, location_id, data_interface, interface):
    """One /dev/cu.* of a USB device: vid, pid, serial, product (the IORegistry entry's name),
    manufacturer and location come from the USB device, so both ports of a board share them;
    `interface` is looked up by the device's locationID among all serial interfaces, so an Intel
    Mac gives both ports whichever name it met first, and Apple Silicon (no IOUSBInterface class)
    gives None."""
    p = ListPortInfo(mac_name(location_id, data_interface), skip_link_detection=True)
    p.vid, p.pid, p.serial_number = board["vid"], board["pid"], board["serial"]
    p.product, p.manufacturer = board["product"], board["manufacturer"]
    p.location = location_to_string(location_id)
    p.interface = interface
    p.apply_usb_info()
    return p


def mac_board(board, location_id, interface=None):
    """Both ports of a board on a Mac; `interface`: the one name pyserial gives both (Intel), or
    None (Apple Silicon). IOKit lists the data port first here: the order must not matter."""
    return [mac_port(board, location_id, 3, interface), mac_port(board, location_id, 1, interface)]


def mac_bluetooth():
    return ListPortInfo("/dev/cu.Bluetooth-Incoming-Port", skip_link_detection=True)


def mac_ftdi(location_id=0x14300000):
    p = ListPortInfo("/dev/cu.usbserial-A50285BI", skip_link_detection=True)
    p.vid, p.pid, p.serial_number = 0x0403, 0x6001, "A50285BI"
    p.product, p.manufacturer, p.location = "FT232R USB UART", "FTDI", location_to_string(location_id)
    p.apply_usb_info()
    return p


# -- Windows: list_ports_windows.iterate_comports --------------------------------------------------
def windows_port(com, board, interface_number, usb_location="1-2", with_location=True):
    """A composite device's CDC function under usbser.sys: the instance id
    USB\\VID_239A&PID_80F4&MI_02\\6&...&0&0002 gives vid, pid and the interface number (MI_02);
    its last part is not a serial number, so pyserial takes the parent device's; the location
    paths ...#USBROOT(0)#USB(2)#USBMI(2) become "1-2:x.2" (none when Windows gives no location
    paths); description is the friendly name, and there is no product nor interface name."""
    p = ListPortInfo(com, skip_link_detection=True)
    p.vid, p.pid, p.serial_number = board["vid"], board["pid"], board["serial"]
    if with_location:
        p.location = "%s:x.%d" % (usb_location, interface_number)
    p.hwid = p.usb_info()
    p.description = "USB Serial Device (%s)" % com
    p.manufacturer = "Microsoft"
    return p


def windows_board(board, console, data, usb_location="1-2", with_location=True):
    """Windows lists ports in its device order, not by name: the data port first here."""
    return [windows_port(data, board, 2, usb_location, with_location),
            windows_port(console, board, 0, usb_location, with_location)]


def windows_ftdi(com="COM5"):
    """FTDIBUS\\VID_0403+PID_6001+A50285BIA\\0000: no location (the FTDI driver hides it)."""
    p = ListPortInfo(com, skip_link_detection=True)
    p.vid, p.pid, p.serial_number = 0x0403, 0x6001, "A50285BIA"
    p.hwid = p.usb_info()
    p.description, p.manufacturer = "USB Serial Port (%s)" % com, "FTDI"
    return p


def windows_builtin(com="COM1"):
    p = ListPortInfo(com, skip_link_detection=True)
    p.hwid, p.description, p.manufacturer = "ACPI\\PNP0501\\0", "Communications Port (%s)" % com, "(Standard port types)"
    return p


# -- the table: each listing, and the data ports it holds (the first is the one found) --------------
CASES = {
    "linux pico": (lambda: [linux_builtin()] + linux_board(PICO, "/dev/ttyACM0", "/dev/ttyACM1"),
                   ["/dev/ttyACM1"]),
    "linux feather, tty numbers reversed": (
        lambda: linux_board(FEATHER, "/dev/ttyACM3", "/dev/ttyACM2", "1-1.4"), ["/dev/ttyACM2"]),
    "linux pico beside an ftdi adapter and a micropython pico": (
        lambda: [linux_ftdi(), linux_micropython_pico("/dev/ttyACM0")]
        + linux_board(PICO, "/dev/ttyACM1", "/dev/ttyACM2", "1-2"), ["/dev/ttyACM2"]),
    "linux two boards": (
        lambda: linux_board(FEATHER, "/dev/ttyACM2", "/dev/ttyACM3", "1-2")
        + linux_board(PICO, "/dev/ttyACM0", "/dev/ttyACM1", "1-1"), ["/dev/ttyACM1", "/dev/ttyACM3"]),
    "linux xiao": (lambda: linux_board(XIAO, "/dev/ttyACM0", "/dev/ttyACM1"), ["/dev/ttyACM1"]),
    "intel mac pico, both named as the console": (
        lambda: [mac_bluetooth()] + mac_board(PICO, 0x14200000, CONSOLE_DATA), ["/dev/cu.usbmodem14203"]),
    "intel mac feather, both named as the data port": (
        lambda: mac_board(FEATHER, 0x14100000, DATA_DATA), ["/dev/cu.usbmodem14103"]),
    "intel mac pico behind a hub, beside an ftdi adapter": (
        lambda: [mac_ftdi()] + mac_board(PICO, 0x14444330, CONSOLE_DATA), ["/dev/cu.usbmodem144443303"]),
    "intel mac two boards": (
        lambda: mac_board(FEATHER, 0x14200000, CONSOLE_DATA) + mac_board(PICO, 0x14100000, DATA_DATA),
        ["/dev/cu.usbmodem14103", "/dev/cu.usbmodem14203"]),
    "apple silicon pico": (lambda: [mac_bluetooth()] + mac_board(PICO, 0x01100000), ["/dev/cu.usbmodem1103"]),
    "apple silicon feather beside an ftdi adapter": (
        lambda: [mac_ftdi(0x01200000), mac_bluetooth()] + mac_board(FEATHER, 0x01100000), ["/dev/cu.usbmodem1103"]),
    "apple silicon two boards": (
        lambda: mac_board(PICO, 0x02100000) + mac_board(XIAO, 0x01100000),
        ["/dev/cu.usbmodem1103", "/dev/cu.usbmodem2103"]),
    "apple silicon xiao": (lambda: mac_board(XIAO, 0x00100000), ["/dev/cu.usbmodem103"]),
    "windows pico, consecutive": (lambda: [windows_builtin()] + windows_board(PICO, "COM3", "COM4"), ["COM4"]),
    "windows feather, data COM9 console COM10": (lambda: windows_board(FEATHER, "COM10", "COM9"), ["COM9"]),
    "windows pico, console COM9 data COM10": (lambda: windows_board(PICO, "COM9", "COM10"), ["COM10"]),
    "windows pico, no location paths: COM9 before COM10": (
        lambda: windows_board(PICO, "COM9", "COM10", with_location=False), ["COM10"]),
    "windows pico beside an ftdi adapter": (
        lambda: [windows_ftdi("COM5")] + windows_board(PICO, "COM3", "COM4"), ["COM4"]),
    "windows two boards": (
        lambda: windows_board(PICO, "COM11", "COM12", "1-3") + windows_board(FEATHER, "COM7", "COM6", "1-2"),
        ["COM6", "COM12"]),
    "windows xiao": (lambda: windows_board(XIAO, "COM5", "COM6"), ["COM6"]),
    "windows sparkfun pro micro, reversed": (lambda: windows_board(PRO_MICRO, "COM8", "COM7"), ["COM7"]),
}


def listing(monkeypatch, ports_list):
    monkeypatch.setattr(list_ports, "comports", lambda include_links=False: list(ports_list))


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_data_port_is_found(monkeypatch, case):
    make, data_ports = CASES[case]
    listing(monkeypatch, make())
    found = ports.candidates()
    assert [c.device for c in found if c.data_port] == data_ports
    assert ports.find_data_port() == data_ports[0]
    # every CircuitPython port is listed (the console too, for `pegboard ports`), nothing else
    boards = len(data_ports)
    assert len(found) == 2 * boards
    assert all(c.vid in ports.VIDS for c in found)


def test_each_rule_is_the_one_that_decides_where_pyserial_gives_it(monkeypatch):
    listing(monkeypatch, linux_board(PICO, "/dev/ttyACM0", "/dev/ttyACM1"))
    assert ports.candidates()[0].why.startswith("USB interface 2")
    listing(monkeypatch, windows_board(PICO, "COM10", "COM9"))
    assert ports.candidates()[0].why.startswith("USB interface 2")
    # an Intel Mac with pyserial's lookup fixed (pyserial PR #566): the names differ
    listing(monkeypatch, [mac_port(PICO, 0x14200000, 1, CONSOLE_DATA), mac_port(PICO, 0x14200000, 3, DATA_DATA)])
    assert ports.candidates()[0].why.startswith("interface name")
    for same in (CONSOLE_DATA, DATA_DATA, None):
        listing(monkeypatch, mac_board(PICO, 0x14200000, same))
        assert ports.candidates()[0].why == "the second name of the pair in numeric order"


def test_names_sort_by_their_numbers():
    names = ["COM10", "COM9", "COM1", "/dev/cu.usbmodem14103", "/dev/cu.usbmodem1103", "/dev/cu.usbmodem14101"]
    assert sorted(names, key=ports.natural_key) == [
        "/dev/cu.usbmodem1103", "/dev/cu.usbmodem14101", "/dev/cu.usbmodem14103", "COM1", "COM9", "COM10"]
    assert ports.interface_number("1-1.4:1.2") == 2
    assert ports.interface_number("1-2:x.2") == 2
    assert ports.interface_number("20-4.4.4.3") is None
    assert ports.interface_number(None) is None


def test_a_lone_port_is_the_data_port_only_when_named_so(monkeypatch):
    # the console disabled in boot.py: the data port alone, at interfaces 0/1
    p = linux_acm("/dev/ttyACM0", PICO, "1-1", 2)
    p.location = "1-1:1.0"
    listing(monkeypatch, [p])
    assert ports.find_data_port() == "/dev/ttyACM0"
    # the data port disabled (an older boot.py): the REPL console alone is never the data port
    listing(monkeypatch, [linux_acm("/dev/ttyACM0", PICO, "1-1", 0)])
    assert ports.find_data_port() is None
    assert [c.device for c in ports.candidates()] == ["/dev/ttyACM0"]
    # nothing named (Windows): a lone port cannot be told apart
    listing(monkeypatch, [windows_port("COM3", PICO, 0)])
    assert ports.find_data_port() is None


def test_ports_with_only_some_attributes_still_count(monkeypatch):
    """Objects with the old few attributes (device, vid, interface, serial_number, description)."""

    class Port:
        def __init__(self, device, vid, interface):
            self.device, self.vid, self.interface = device, vid, interface
            self.serial_number, self.description, self.product = "ABC", "Pico", "Pico"

    listing(monkeypatch, [Port("/dev/ttyUSB0", 0x0403, None), Port("/dev/ttyACM0", 0x239A, CONSOLE_CONTROL),
                          Port("/dev/ttyACM1", 0x239A, DATA_CONTROL)])
    assert [c.device for c in ports.candidates()] == ["/dev/ttyACM1", "/dev/ttyACM0"]
    listing(monkeypatch, [Port("COM10", 0x2E8A, None), Port("COM9", 0x2E8A, None)])
    assert ports.find_data_port() == "COM10"


# -- the same board again, by its identity ----------------------------------------------------------
def test_the_same_board_is_found_again_by_its_serial_number(monkeypatch):
    listing(monkeypatch, linux_board(PICO, "/dev/ttyACM0", "/dev/ttyACM1", "1-1")
            + linux_board(FEATHER, "/dev/ttyACM2", "/dev/ttyACM3", "1-2"))
    feather = ports.identity_of("/dev/ttyACM3")
    assert feather == ports.BoardIdentity(FEATHER["serial"], 0x239A, 0x80F2)
    assert ports.find_data_port() == "/dev/ttyACM1"  # any board: the first
    assert ports.find_data_port(feather) == "/dev/ttyACM3"
    # unplugged and plugged into another socket: other names, the Pico now sorts after it
    listing(monkeypatch, linux_board(FEATHER, "/dev/ttyACM0", "/dev/ttyACM1", "1-3")
            + linux_board(PICO, "/dev/ttyACM4", "/dev/ttyACM5", "1-1"))
    assert ports.find_data_port(feather) == "/dev/ttyACM1"
    # gone: not another board instead
    listing(monkeypatch, linux_board(PICO, "/dev/ttyACM4", "/dev/ttyACM5", "1-1"))
    assert ports.find_data_port(feather) is None
    # two boards of one kind on a Mac: told apart by the serial number alone
    other_pico = dict(PICO, serial="E66141040396452B")
    listing(monkeypatch, mac_board(PICO, 0x14100000) + mac_board(other_pico, 0x14200000))
    second = ports.identity_of("/dev/cu.usbmodem14201")
    assert second is not None and second.serial_number == "E66141040396452B"
    listing(monkeypatch, mac_board(other_pico, 0x14300000) + mac_board(PICO, 0x14100000))
    assert ports.find_data_port(second) == "/dev/cu.usbmodem14303"


def test_identity_of_a_link_and_of_what_is_no_board(monkeypatch, tmp_path):
    tty = tmp_path / "ttyACM1"
    tty.write_text("")
    link = tmp_path / "usb-Raspberry_Pi_Pico-if02"
    link.symlink_to(tty)
    listing(monkeypatch, linux_board(PICO, str(tmp_path / "ttyACM0"), str(tty)))
    assert ports.identity_of(str(link)) == ports.BoardIdentity(PICO["serial"], 0x239A, 0x80F4)
    assert ports.identity_of("/dev/pts/7") is None  # a simulator
    assert ports.identity_of("socket://localhost:7000") is None


class FakeSerial:
    """What serial.serial_for_url gives, as far as SerialLink uses it; the ports in `dead` fail."""

    dead: set = set()
    opened: list = []

    def __init__(self, port, **kw):
        self.port, self.exclusive, self.written = port, False, b""

    def open(self):
        FakeSerial.opened.append(self)

    def close(self):
        pass

    def reset_input_buffer(self):
        pass

    def write(self, data):
        if self.port in FakeSerial.dead:
            raise serial.SerialException("device disconnected")
        self.written += data
        return len(data)


def test_a_link_reconnects_to_the_board_it_found_not_another(monkeypatch):
    from pegboard.link.serial_link import SerialLink

    monkeypatch.setattr(serial, "serial_for_url", FakeSerial)
    monkeypatch.setattr(FakeSerial, "opened", [])
    monkeypatch.setattr(FakeSerial, "dead", set())
    listing(monkeypatch, linux_board(PICO, "/dev/ttyACM0", "/dev/ttyACM1", "1-1")
            + linux_board(FEATHER, "/dev/ttyACM2", "/dev/ttyACM3", "1-2"))
    link = SerialLink(None, reconnect=1.0).open()
    assert link.connected_to == "/dev/ttyACM1"
    assert link.identity == ports.BoardIdentity(PICO["serial"], 0x239A, 0x80F4)
    # the Pico is pulled and plugged into another socket; the Feather, which sorts first now, stays
    FakeSerial.dead.add("/dev/ttyACM1")
    listing(monkeypatch, linux_board(FEATHER, "/dev/ttyACM2", "/dev/ttyACM3", "1-2")
            + linux_board(PICO, "/dev/ttyACM4", "/dev/ttyACM5", "1-3"))
    link.write(b'{"cmd": "state"}\n')
    assert link.connected_to == "/dev/ttyACM5"
    assert FakeSerial.opened[-1].written == b'{"cmd": "state"}\n'
    link.close()


def test_the_hub_of_a_found_board_looks_for_that_board_again(monkeypatch, capsys):
    from pegboard.link import hub
    from pegboard.link.errors import NoBoard

    made = {}

    class Link:
        def __init__(self, port, finder):
            made["port"], made["finder"] = port, finder

        def open(self):
            raise NoBoard("not opened in this test", "no_board")

    monkeypatch.setattr(hub, "SerialLink", Link)
    monkeypatch.setattr(hub.signal, "signal", lambda *a: None)
    monkeypatch.setattr(ports, "find_board_or_sim", lambda note=None: "/dev/pts/9")
    listing(monkeypatch, linux_board(PICO, "/dev/ttyACM0", "/dev/ttyACM1", "1-1")
            + linux_board(FEATHER, "/dev/ttyACM2", "/dev/ttyACM3", "1-2"))
    assert hub.main(["/dev/ttyACM3", "--refind"]) == 1
    assert "not opened" in capsys.readouterr().out
    finder = made["finder"]
    assert made["port"] is None
    assert finder() == "/dev/ttyACM3"  # the first open: the port the program found
    listing(monkeypatch, linux_board(PICO, "/dev/ttyACM0", "/dev/ttyACM1", "1-1")
            + linux_board(FEATHER, "/dev/ttyACM4", "/dev/ttyACM5", "1-4"))
    assert finder() == "/dev/ttyACM5"  # the Feather again, not the Pico that sorts first
    listing(monkeypatch, linux_board(PICO, "/dev/ttyACM0", "/dev/ttyACM1", "1-1"))
    assert finder() is None  # gone: no other board instead
    # a simulator's hub (no USB identity): any board, else a running simulator, as before
    assert hub.main(["/dev/pts/3", "--refind"]) == 1
    made["finder"]()
    assert made["finder"]() == "/dev/pts/9"


def test_run_leaves_a_found_board_to_be_found_again(monkeypatch):
    from pegboard.commands import ui

    asked = []

    def mirror(args):
        asked.append(args.port)
        return 0

    monkeypatch.setattr(ports, "find_data_port", lambda identity=None: "/dev/cu.usbmodem14103")  # plugged in
    monkeypatch.setattr(ui, "mirror", mirror)
    assert ui.run(argparse.Namespace(sim=False)) == 0
    assert asked == [None]  # not the path found now: after a replug it may be another
