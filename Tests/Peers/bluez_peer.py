"""BlueZ for the BLE heart-rate driver's tests: a private system bus (dbus-daemon) with the
python-dbusmock bluez5 template extended with heart-rate straps (bluez_heart_rate.py).

Prints `bus ADDRESS` once the mock owns org.bluez, then runs commands read as lines from the
FIFO (or /dev/stdin) named by its argument, answering each on stdout with `ok N RESULT` or `error N MESSAGE`:
  N call METHOD JSON-ARGS   a method of the mock (AddAdapter, AddHeartRateStrap, NotifyHeartRate, …)
  N stop-bluez              bluetoothd goes away (the mock process is killed)
  N start-bluez             bluetoothd comes back, with no adapters
  N quit
With a second argument, a D-Bus policy file, the bus denies every call to org.bluez (as a system
bus does) but the mock's own and those the file allows this user, as it does user flapd when
installed.
Run with Debian's /usr/bin/python3 (python3-dbusmock, python3-dbus).
"""
import json
import os
import signal
import sys

# Started by Foundation's Process from a Swift concurrency thread, this process inherits a blocked
# SIGTERM, and so would the mock it starts, which then could not be stopped.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

import dbus
import dbusmock
from dbusmock import DBusTestCase

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bluez_heart_rate.py")

def start_restricted_bus(policy_file):
    """A system bus that denies calls to org.bluez but those `policy_file` allows this user."""
    import getpass
    import subprocess
    import tempfile
    directory = tempfile.mkdtemp(prefix="bluez-policy-")
    with open(policy_file) as source:
        policy = source.read().replace('user="flapd"', f'user="{getpass.getuser()}"')
    with open(os.path.join(directory, "policy.conf"), "w") as target:
        target.write(policy)
    with open(os.path.join(directory, "bus.conf"), "w") as config:
        config.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:dir={directory}</listen>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
    <deny send_destination="org.bluez"/>
    <allow send_destination="org.bluez" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.bluez" send_interface="org.freedesktop.DBus.Mock"/>
    <allow send_destination="org.bluez" send_interface="org.bluez.Mock"/>
  </policy>
  <include>{os.path.join(directory, "policy.conf")}</include>
</busconfig>
""")
    lines = subprocess.check_output(["dbus-daemon", "--fork", "--print-address=1", "--print-pid=1",
                                     "--config-file=" + os.path.join(directory, "bus.conf")], text=True).split()
    os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = lines[0]
    DBusTestCase.system_bus_pid = int(lines[1])


if len(sys.argv) > 2:
    start_restricted_bus(sys.argv[2])
else:
    DBusTestCase.start_system_bus()
bus = DBusTestCase.get_dbus(system_bus=True)
mock = None
server = None


def start():
    global mock, server
    server, _ = DBusTestCase.spawn_server_template(TEMPLATE, {}, subprocess_stdout(), system_bus=True)
    mock = dbus.Interface(bus.get_object("org.bluez", "/"), "org.bluez.Mock")


def subprocess_stdout():
    return open(os.devnull, "w")


def stop():
    global server
    if server is not None:
        server.terminate()
        server.wait()
        server = None


def to_dbus(value):
    if isinstance(value, bool):
        return dbus.Boolean(value)
    if isinstance(value, list):
        return dbus.Array([dbus.Byte(v) for v in value], signature="y")
    return value


try:
    start()
    print("bus", os.environ["DBUS_SYSTEM_BUS_ADDRESS"], flush=True)
    with open(sys.argv[1], "r") as commands:
        for line in commands:
            number, _, rest = line.strip().partition(" ")
            verb, _, arguments = rest.partition(" ")
            try:
                result = ""
                if verb == "call":
                    method, _, encoded = arguments.partition(" ")
                    args = [to_dbus(a) for a in json.loads(encoded or "[]")]
                    result = getattr(mock, method)(*args)
                    if isinstance(result, (list, tuple)):
                        result = json.dumps([int(v) if isinstance(v, int) else str(v) for v in result])
                elif verb == "stop-bluez":
                    stop()
                elif verb == "start-bluez":
                    start()
                elif verb == "quit":
                    print(f"ok {number}", flush=True)
                    break
                else:
                    raise ValueError(f"unknown command {verb}")
                print(f"ok {number} {result if result is not None else ''}".rstrip(), flush=True)
            except Exception as error:  # the test reads the message
                print(f"error {number} {error}", flush=True)
finally:
    stop()
    DBusTestCase.tearDownClass()
