"""avahi-daemon for flapd's announcement tests: a private system bus (dbus-daemon) where
python-dbusmock plays avahi's org.freedesktop.Avahi.Server at / and makes an
org.freedesktop.Avahi.EntryGroup object for each EntryGroupNew, recording what is called on it.

Prints `bus ADDRESS` once the mock owns org.freedesktop.Avahi, then runs commands read as lines
from the FIFO named by its argument, answering each on stdout with `ok N RESULT` or `error N MESSAGE`:
  N groups     the entry groups as JSON: [{"path", "calls": [[method, args…]…]}]
  N take NAME  another machine has the name: AddService of it fails as avahi's does (CollisionError)
  N quit
Run with Debian's /usr/bin/python3 (python3-dbusmock, python3-dbus).
"""
import json
import os
import signal
import sys

signal.pthread_sigmask(signal.SIG_SETMASK, [])

import dbus
import dbusmock
from dbusmock import DBusTestCase

NAME = "org.freedesktop.Avahi"
SERVER = "org.freedesktop.Avahi.Server"
GROUP = "org.freedesktop.Avahi.EntryGroup"

DBusTestCase.start_system_bus()
bus = DBusTestCase.get_dbus(system_bus=True)
server = DBusTestCase.spawn_server(NAME, "/", SERVER, system_bus=True, stdout=open(os.devnull, "w"))
mock = dbus.Interface(bus.get_object(NAME, "/"), dbusmock.MOCK_IFACE)
mock.AddMethod(SERVER, "GetVersionString", "", "s", 'ret = "avahi 0.8"')
mock.AddMethod(SERVER, "GetState", "", "i", "ret = 2")
# Each group records its calls (dbusmock's call log); AddService refuses a name once `collide` asked.
mock.AddMethod(SERVER, "EntryGroupNew", "", "o", """
self.groups = getattr(self, 'groups', 0) + 1
path = '/Client1/EntryGroup%d' % self.groups
code = ('if args[3] in getattr(objects["/"], "taken", set()):\\n'
        '    raise dbus.exceptions.DBusException("Local name collision", name="org.freedesktop.Avahi.CollisionError")')
self.AddObject(path, 'org.freedesktop.Avahi.EntryGroup', {}, [
    ('AddService', 'iiussssqaay', '', code),
    ('Commit', '', '', ''),
    ('Reset', '', '', ''),
    ('Free', '', '', ''),
    ('GetState', '', 'i', 'ret = 2'),
    ('IsEmpty', '', 'b', 'ret = False'),
])
ret = dbus.ObjectPath(path)
""")
mock.AddMethod(SERVER, "Take", "s", "", "self.taken = getattr(self, 'taken', set()) | {args[0]}")


def plain(value):
    if isinstance(value, dbus.Array) and value.signature == "y":
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, (list, dbus.Array)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.String, dbus.ObjectPath)):
        return str(value)
    if isinstance(value, (int, dbus.Int32, dbus.UInt32, dbus.UInt16)):
        return int(value)
    return str(value)


def groups():
    found = []
    count = 1
    while True:
        path = f"/Client1/EntryGroup{count}"
        try:
            calls = dbus.Interface(bus.get_object(NAME, path), dbusmock.MOCK_IFACE).GetCalls()
        except dbus.exceptions.DBusException:
            break
        found.append({"path": path, "calls": [[str(method)] + [plain(a) for a in args] for _, method, args in calls]})
        count += 1
    return found


try:
    print("bus", os.environ["DBUS_SYSTEM_BUS_ADDRESS"], flush=True)
    with open(sys.argv[1], "r") as commands:
        for line in commands:
            number, _, verb = line.strip().partition(" ")
            try:
                result = ""
                if verb == "groups":
                    result = json.dumps(groups())
                elif verb.startswith("take "):
                    dbus.Interface(bus.get_object(NAME, "/"), SERVER).Take(verb[5:])
                elif verb == "quit":
                    print(f"ok {number}", flush=True)
                    break
                else:
                    raise ValueError(f"unknown command {verb}")
                print(f"ok {number} {result}".rstrip(), flush=True)
            except Exception as error:  # the test reads the message
                print(f"error {number} {error}", flush=True)
finally:
    server.terminate()
    server.wait()
    DBusTestCase.tearDownClass()
