"""A real Home Assistant core for the tests (PyPI's homeassistant 2024.3.3, in its own venv:
.build/ha-venv, made by scripts/test from Tests/Peers/requirements-ha.txt).

Usage:
  home_assistant_peer.py start CONFIG_DIR HTTP_PORT MQTT_PORT
      Writes a minimal configuration.yaml, starts `hass`, onboards a user over the REST API,
      adds the MQTT integration through the config-flow API pointed at 127.0.0.1:MQTT_PORT, and
      prints {"pid", "token"} (an access token, 30 minutes) once Home Assistant answers. Home
      Assistant keeps running (its log in CONFIG_DIR/home-assistant.log) until killed.
  home_assistant_peer.py registry BASE_URL TOKEN
      Prints {"entities": [...], "devices": [...]}: Home Assistant's entity and device registries
      (unique ids, platforms, devices' identifiers), which only the WebSocket API lists.
  home_assistant_peer.py events BASE_URL TOKEN ENTITY_ID COUNT
      Subscribes over the WebSocket API to state changes of ENTITY_ID (an event entity), prints
      "subscribed", then prints each new state as a JSON line, COUNT of them, and exits.
"""
import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import aiohttp

CONFIGURATION = """homeassistant:
  name: VestaWidget test home
  latitude: 52.52
  longitude: 13.40
  elevation: 34
  unit_system: metric
  time_zone: UTC
  currency: EUR
  country: DE
http:
  server_host: 127.0.0.1
  server_port: {port}
api:
config:
onboarding:
"""


def request(method, url, body=None, token=None, form=False):
    data, headers = None, {}
    if body is not None:
        if form:
            data = urllib.parse.urlencode(body).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers, method=method), timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def start(config_dir, port, mqtt_port):
    os.makedirs(config_dir, exist_ok=True)
    with open(os.path.join(config_dir, "configuration.yaml"), "w") as file:
        file.write(CONFIGURATION.format(port=port))
    hass = os.path.join(os.path.dirname(sys.executable), "hass")
    log = open(os.path.join(config_dir, "hass.out"), "w")
    process = subprocess.Popen([hass, "-c", config_dir, "--log-file", os.path.join(config_dir, "home-assistant.log")],
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 240
    while True:
        if process.poll() is not None:
            raise SystemExit(f"hass exited with {process.returncode}; see {config_dir}/hass.out")
        try:
            request("GET", base + "/api/onboarding")
            break
        except Exception:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("Home Assistant did not answer within 240 s")
            time.sleep(0.5)
    client_id = base + "/"
    user = request("POST", base + "/api/onboarding/users", {
        "client_id": client_id, "name": "Test", "username": "test", "password": "test-password-1", "language": "en"})
    token = request("POST", base + "/auth/token", {
        "grant_type": "authorization_code", "code": user["auth_code"], "client_id": client_id}, form=True)["access_token"]
    flow = request("POST", base + "/api/config/config_entries/flow", {"handler": "mqtt"}, token)
    if flow.get("type") == "form":
        flow = request("POST", base + f"/api/config/config_entries/flow/{flow['flow_id']}",
                       {"broker": "127.0.0.1", "port": int(mqtt_port)}, token)
    if flow.get("type") != "create_entry":
        process.kill()
        raise SystemExit(f"the MQTT integration was not set up: {flow}")
    print(json.dumps({"pid": process.pid, "token": token}), flush=True)


async def authenticated(session, base, token):
    socket = await session.ws_connect(base.replace("http", "ws", 1) + "/api/websocket")
    await socket.receive_json()  # auth_required
    await socket.send_json({"type": "auth", "access_token": token})
    if (await socket.receive_json())["type"] != "auth_ok":
        raise SystemExit("the WebSocket refused the token")
    return socket


async def registry(base, token):
    async with aiohttp.ClientSession() as session:
        socket = await authenticated(session, base, token)
        answers = {}
        for number, kind, plural in [(1, "entity", "entities"), (2, "device", "devices")]:
            await socket.send_json({"id": number, "type": f"config/{kind}_registry/list"})
            answers[plural] = (await socket.receive_json())["result"]
        await socket.close()
        print(json.dumps(answers))


async def events(base, token, entity, count):
    async with aiohttp.ClientSession() as session:
        socket = await authenticated(session, base, token)
        await socket.send_json({"id": 1, "type": "subscribe_events", "event_type": "state_changed"})
        await socket.receive_json()  # the subscription's result
        print("subscribed", flush=True)
        seen = 0
        while seen < count:
            message = await socket.receive_json()
            data = message.get("event", {}).get("data", {})
            if data.get("entity_id") != entity or not data.get("new_state"):
                continue
            print(json.dumps(data["new_state"]), flush=True)
            seen += 1
        await socket.close()


def main():
    command = sys.argv[1]
    if command == "start":
        start(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif command == "registry":
        asyncio.run(registry(sys.argv[2], sys.argv[3]))
    elif command == "events":
        asyncio.run(events(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
