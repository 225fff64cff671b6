"""A python-dbusmock template: BlueZ (Debian's bluez5 template, adapters and devices) plus
heart-rate straps with the GATT objects BlueZ makes for them, for the BLE driver's tests.

A strap is a Device1 advertising the Heart Rate service (0x180D) with Battery1. Connect fails
while the strap is out of range or the adapter is off; when it succeeds the strap's GATT service,
its Heart Rate Measurement characteristic (0x2A37, notify) and Body Sensor Location (0x2A38,
read) appear, then ServicesResolved turns true. Notify() sets the 0x2A37 Value, which BlueZ
announces with PropertiesChanged, as it does for each notification from a real strap.
"""
import dbus
from dbusmock import mockobject
from dbusmock.templates import bluez5
from dbusmock.templates.bluez5 import *  # noqa: F401,F403  (AddAdapter, AddDevice, … on the mock interface)
from dbusmock.templates.bluez5 import ADAPTER_IFACE, BLUEZ_MOCK_IFACE, DEVICE_IFACE, OBJECT_MANAGER_IFACE

HEART_RATE_SERVICE = "0000180d-0000-1000-8000-00805f9b34fb"
MEASUREMENT = "00002a37-0000-1000-8000-00805f9b34fb"
BODY_SENSOR_LOCATION = "00002a38-0000-1000-8000-00805f9b34fb"
BATTERY_SERVICE = "0000180f-0000-1000-8000-00805f9b34fb"
GATT_SERVICE_IFACE = "org.bluez.GattService1"
GATT_CHARACTERISTIC_IFACE = "org.bluez.GattCharacteristic1"
BATTERY_IFACE = "org.bluez.Battery1"


def load(mock, parameters):
    bluez5.load(mock, parameters)


def _manager():
    return mockobject.objects["/"]


def _strap(address):
    for path, obj in mockobject.objects.items():
        if DEVICE_IFACE in obj.props and obj.props[DEVICE_IFACE].get("Address") == address:
            return path, obj
    raise dbus.exceptions.DBusException(f"no strap {address}", name=BLUEZ_MOCK_IFACE + ".NoSuchDevice")


def _add(path, interface, properties, methods):
    _manager().AddObject(path, interface, properties, methods)
    _manager().EmitSignal(OBJECT_MANAGER_IFACE, "InterfacesAdded", "oa{sa{sv}}", [dbus.ObjectPath(path), {interface: properties}])


def _remove(path, interface):
    if path in mockobject.objects:
        _manager().RemoveObject(path)
        _manager().EmitSignal(OBJECT_MANAGER_IFACE, "InterfacesRemoved", "oas", [dbus.ObjectPath(path), [interface]])


def _start_notify(characteristic):
    characteristic.UpdateProperties(GATT_CHARACTERISTIC_IFACE, {"Notifying": dbus.Boolean(True)})


def _stop_notify(characteristic):
    characteristic.UpdateProperties(GATT_CHARACTERISTIC_IFACE, {"Notifying": dbus.Boolean(False)})


def _read_location(_characteristic, _options):
    return dbus.Array([dbus.Byte(1)], signature="y")  # chest


def _drop(device):
    """The link is gone: BlueZ says so and forgets the GATT objects of an unbonded device."""
    if not device.props[DEVICE_IFACE]["Connected"]:
        return
    path = device.path
    device.UpdateProperties(DEVICE_IFACE, {"ServicesResolved": dbus.Boolean(False)})
    device.UpdateProperties(DEVICE_IFACE, {"Connected": dbus.Boolean(False)})
    _remove(path + "/service000c/char000d", GATT_CHARACTERISTIC_IFACE)
    _remove(path + "/service000c/char000f", GATT_CHARACTERISTIC_IFACE)
    _remove(path + "/service000c", GATT_SERVICE_IFACE)


def _connect(device):
    adapter = mockobject.objects[device.props[DEVICE_IFACE]["Adapter"]]
    if not adapter.props[ADAPTER_IFACE]["Powered"]:
        raise dbus.exceptions.DBusException("Resource Not Ready", name="org.bluez.Error.NotReady")
    if not device.in_range:
        raise dbus.exceptions.DBusException("le-connection-abort-by-local", name="org.bluez.Error.Failed")
    if device.props[DEVICE_IFACE]["Connected"]:
        raise dbus.exceptions.DBusException("Already Connected", name="org.bluez.Error.AlreadyConnected")
    device.connects += 1
    path = device.path
    device.UpdateProperties(DEVICE_IFACE, {"Connected": dbus.Boolean(True)})
    service = path + "/service000c"
    _add(service, GATT_SERVICE_IFACE,
         {"UUID": HEART_RATE_SERVICE, "Device": dbus.ObjectPath(path), "Primary": dbus.Boolean(True)}, [])
    _add(service + "/char000d", GATT_CHARACTERISTIC_IFACE,
         {"UUID": MEASUREMENT, "Service": dbus.ObjectPath(service), "Flags": dbus.Array(["notify"], signature="s"),
          "Notifying": dbus.Boolean(False), "Value": dbus.Array([], signature="y")},
         [("StartNotify", "", "", _start_notify), ("StopNotify", "", "", _stop_notify)])
    _add(service + "/char000f", GATT_CHARACTERISTIC_IFACE,
         {"UUID": BODY_SENSOR_LOCATION, "Service": dbus.ObjectPath(service), "Flags": dbus.Array(["read"], signature="s"),
          "Value": dbus.Array([], signature="y")},
         [("ReadValue", "a{sv}", "ay", _read_location)])
    device.UpdateProperties(DEVICE_IFACE, {"ServicesResolved": dbus.Boolean(True)})


def _disconnect(device):
    _drop(device)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature="sssy", out_signature="s")
def AddHeartRateStrap(self, adapter, address, name, battery):
    """A strap in range, advertising the Heart Rate service, not connected."""
    path = self.AddDevice(adapter, address, name)
    device = mockobject.objects[path]
    device.in_range = True
    device.connects = 0
    device.AddMethods(DEVICE_IFACE, [("Connect", "", "", _connect), ("Disconnect", "", "", _disconnect)])
    device.UpdateProperties(DEVICE_IFACE, {
        "UUIDs": dbus.Array([HEART_RATE_SERVICE, BATTERY_SERVICE], signature="s"),
        "RSSI": dbus.Int16(-58),
    })
    device.AddProperties(BATTERY_IFACE, {"Percentage": dbus.Byte(battery)})
    _manager().EmitSignal(OBJECT_MANAGER_IFACE, "InterfacesAdded", "oa{sa{sv}}",
                          [dbus.ObjectPath(path), {BATTERY_IFACE: {"Percentage": dbus.Byte(battery, variant_level=1)}}])
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature="say", out_signature="")
def NotifyHeartRate(self, address, value):
    """One notification of 0x2A37 carrying `value`."""
    path, device = _strap(address)
    characteristic = mockobject.objects.get(path + "/service000c/char000d")
    if characteristic is None or not characteristic.props[GATT_CHARACTERISTIC_IFACE]["Notifying"]:
        raise dbus.exceptions.DBusException(f"{address} is not notifying", name=BLUEZ_MOCK_IFACE + ".NotNotifying")
    characteristic.UpdateProperties(GATT_CHARACTERISTIC_IFACE, {"Value": dbus.Array([dbus.Byte(b) for b in value], signature="y")})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature="sb", out_signature="")
def SetInRange(self, address, in_range):
    """Walks a strap out of range (its link drops, connecting fails) or back in."""
    _, device = _strap(address)
    device.in_range = bool(in_range)
    if not in_range:
        _drop(device)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature="sb", out_signature="")
def SetPowered(self, adapter, powered):
    """Powers an adapter off (every link drops) or on."""
    path = "/org/bluez/" + adapter
    if not powered:
        for obj in list(mockobject.objects.values()):
            if DEVICE_IFACE in obj.props and obj.props[DEVICE_IFACE]["Adapter"] == path:
                _drop(obj)
        mockobject.objects[path].UpdateProperties(ADAPTER_IFACE, {"Discovering": dbus.Boolean(False)})
    mockobject.objects[path].UpdateProperties(ADAPTER_IFACE, {"Powered": dbus.Boolean(powered)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature="s", out_signature="s")
def StrapState(self, address):
    """`connected=… notifying=… connects=N`."""
    path, device = _strap(address)
    characteristic = mockobject.objects.get(path + "/service000c/char000d")
    notifying = bool(characteristic and characteristic.props[GATT_CHARACTERISTIC_IFACE]["Notifying"])
    return f"connected={bool(device.props[DEVICE_IFACE]['Connected'])} notifying={notifying} connects={device.connects}"


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature="s", out_signature="s")
def AdapterState(self, adapter):
    """`discovering=… filter=UUIDs/Transport`."""
    props = mockobject.objects["/org/bluez/" + adapter].props[ADAPTER_IFACE]
    found = props.get("DiscoveryFilter") or {}
    uuids = ",".join(str(u) for u in found.get("UUIDs", []))
    return f"discovering={bool(props['Discovering'])} filter={uuids}/{found.get('Transport', '')}"


_bursts = {"times": []}


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature="suu", out_signature="")
def StartBurst(self, address, count, interval_ms):
    """Notifies `count` readings from the main loop, `interval_ms` apart (0: back to back), each
    carrying its sequence number 1… as its RR interval, and keeps when each left (CLOCK_MONOTONIC
    nanoseconds) for BurstTimes: for measuring notification → sample latency."""
    from gi.repository import GLib
    import time
    path, _ = _strap(address)
    characteristic = mockobject.objects[path + "/service000c/char000d"]
    _bursts["times"] = []
    state = {"next": 1}

    def send():
        number = state["next"]
        value = [0x10, 72, number & 0xFF, number >> 8]
        _bursts["times"].append(time.monotonic_ns())
        characteristic.UpdateProperties(GATT_CHARACTERISTIC_IFACE, {"Value": dbus.Array([dbus.Byte(b) for b in value], signature="y")})
        state["next"] += 1
        return state["next"] <= count

    if interval_ms:
        GLib.timeout_add(interval_ms, send)
    else:
        GLib.idle_add(send)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature="", out_signature="at")
def BurstTimes(self):
    """When each notification of the last burst left, in order."""
    return dbus.Array(_bursts["times"], signature="t")
