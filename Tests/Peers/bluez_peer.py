"""BlueZ for the BLE heart-rate driver's tests: a private system bus (dbus-daemon) with the
python-dbusmock bluez5 template extended with heart-rate straps (bluez_heart_rate.py).

Prints `bus ADDRESS` once the mock owns org.bluez, then runs commands read as lines from the
FIFO named by its argument, answering each on stdout with `ok N RESULT` or `error N MESSAGE`:
  N call METHOD JSON-ARGS   a method of the mock (AddAdapter, AddHeartRateStrap, NotifyHeartRate, …)
  N stop-bluez              bluetoothd goes away (the mock process is killed)
  N start-bluez             bluetoothd comes back, with no adapters
  N quit
Run with Debian's /usr/bin/python3 (python3-dbusmock, python3-dbus).
"""
import json
import os
import sys

import dbus
import dbusmock
from dbusmock import DBusTestCase

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bluez_heart_rate.py")

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


start()
print("bus", os.environ["DBUS_SYSTEM_BUS_ADDRESS"], flush=True)
try:
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
