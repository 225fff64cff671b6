"""Publishers for the crash tests: an independent MQTT client (paho-mqtt) on the other side of
the broker from flapd.

Usage: mqtt_publishers.py PORT TOPIC QOS PUBLISHERS PER_PUBLISHER ACKED_FILE [ID_PREFIX]

Publisher p sends PER_PUBLISHER messages to TOPIC as sender "sender<p>", ids "s<p>-<i>" (ID_PREFIX
instead of "s" when given; with ID_PREFIX "-", no ids at all, and "sender<p>/message <i>" stands
for each message in ACKED_FILE), each
created one second after the one before, as fast as the broker takes them. Each id whose
acknowledgement reaches its publisher (PUBACK for QoS 1, PUBCOMP for QoS 2) is appended to
ACKED_FILE when the publishers are done. Prints "done N" when every message is acknowledged
(or after 120 s).
"""
import datetime
import sys
import threading
import time

import paho.mqtt.client as mqtt

port, topic, qos, publishers, per = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
acked_path = sys.argv[6]
prefix = sys.argv[7] if len(sys.argv) > 7 else "s"
# In the past, so the newest is now: flapd takes a createdAt far ahead of its clock as the arrival time.
base = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=per)
results = {}


def publisher(p):
    ids = {}
    acked = []  # mids, appended by paho's network thread (list.append is atomic)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"crash-pub-{p}", protocol=mqtt.MQTTv5)
    client.max_inflight_messages_set(20)
    client.max_queued_messages_set(0)
    client.on_publish = lambda client, userdata, mid, reason_code, properties: acked.append(mid)
    client.connect("127.0.0.1", port)
    client.loop_start()
    for i in range(per):
        created = (base + datetime.timedelta(seconds=i)).isoformat().replace("+00:00", "Z")
        if prefix == "-":
            message_id = f"sender{p}/message {i}"
            body = f'{{"sender": {{"id": "sender{p}"}}, "text": "message {i}", "createdAt": "{created}"}}'
        else:
            message_id = f"{prefix}{p}-{i}"
            body = f'{{"id": "{message_id}", "sender": {{"id": "sender{p}"}}, "text": "message {i}", "createdAt": "{created}"}}'
        ids[client.publish(topic, body, qos=qos).mid] = message_id
    deadline = time.time() + 120
    while len(acked) < per and time.time() < deadline:
        time.sleep(0.01)
    client.loop_stop()
    client.disconnect()
    results[p] = [ids[mid] for mid in list(acked) if mid in ids]


threads = [threading.Thread(target=publisher, args=(p,)) for p in range(publishers)]
for t in threads:
    t.start()
for t in threads:
    t.join()
with open(acked_path, "w") as out:
    for p in sorted(results):
        for message_id in results[p]:
            out.write(message_id + "\n")
print(f"done {sum(len(r) for r in results.values())}", flush=True)
