"""Encodes and decodes Chainlink frames with Python's protobuf, cobs and zlib, for comparison.

The message types are built here from their field numbers (the Chainlink wire protocol as
published by scottbez1/splitflap), not from that project's .proto file. One JSON request per
line on stdin, one JSON answer per line on stdout:
  {"op": "to", "nonce": N, "config": [[target, movement_nonce, reset_nonce], ...]} -> {"frame": hex}
  {"op": "to", "nonce": N, "request_state": true}                               -> {"frame": hex}
  {"op": "from_state", "modules": [[state, flap, moving, home, unexpected, missed]...], "loopbacks_ok": b} -> {"frame": hex}
  {"op": "from_ack", "nonce": N} / {"op": "from_log", "msg": s} / {"op": "from_general", "version", "uptime", "charset"} -> {"frame": hex}
  {"op": "parse_to", "frame": hex} -> {"nonce", "config": [...]} (checks the CRC)
"""
import json
import sys
import zlib

from cobs import cobs
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto


def build():
    fd = descriptor_pb2.FileDescriptorProto(name="chainlink_peer.proto", package="peer", syntax="proto3")

    def message(name, fields, nested=()):
        m = fd.message_type.add(name=name)
        for fname, number, ftype, label, type_name, oneof in fields:
            f = m.field.add(name=fname, number=number, type=ftype, label=label)
            if type_name:
                f.type_name = type_name
            if oneof is not None:
                f.oneof_index = oneof
        return m

    opt, rep = F.LABEL_OPTIONAL, F.LABEL_REPEATED
    message("ModuleConfig", [("target_flap_index", 1, F.TYPE_UINT32, opt, None, None),
                             ("movement_nonce", 2, F.TYPE_UINT32, opt, None, None),
                             ("reset_nonce", 3, F.TYPE_UINT32, opt, None, None)])
    message("SplitflapConfig", [("modules", 1, F.TYPE_MESSAGE, rep, ".peer.ModuleConfig", None)])
    message("RequestState", [])
    to = message("ToSplitflap", [("nonce", 1, F.TYPE_UINT32, opt, None, None),
                                 ("splitflap_config", 3, F.TYPE_MESSAGE, opt, ".peer.SplitflapConfig", 0),
                                 ("request_state", 4, F.TYPE_MESSAGE, opt, ".peer.RequestState", 0)])
    to.oneof_decl.add(name="payload")
    message("ModuleState", [("state", 1, F.TYPE_UINT32, opt, None, None), ("flap_index", 2, F.TYPE_UINT32, opt, None, None),
                            ("moving", 3, F.TYPE_BOOL, opt, None, None), ("home_state", 4, F.TYPE_BOOL, opt, None, None),
                            ("count_unexpected_home", 5, F.TYPE_UINT32, opt, None, None),
                            ("count_missed_home", 6, F.TYPE_UINT32, opt, None, None)])
    message("SplitflapState", [("modules", 1, F.TYPE_MESSAGE, rep, ".peer.ModuleState", None),
                               ("loopbacks_ok", 2, F.TYPE_BOOL, opt, None, None)])
    message("Log", [("msg", 1, F.TYPE_STRING, opt, None, None)])
    message("Ack", [("nonce", 1, F.TYPE_UINT32, opt, None, None)])
    message("GeneralState", [("serial_protocol_version", 1, F.TYPE_UINT32, opt, None, None),
                             ("uptime_millis", 2, F.TYPE_UINT32, opt, None, None),
                             ("flap_character_set", 4, F.TYPE_BYTES, opt, None, None)])
    frm = message("FromSplitflap", [("splitflap_state", 1, F.TYPE_MESSAGE, opt, ".peer.SplitflapState", 0),
                                    ("log", 2, F.TYPE_MESSAGE, opt, ".peer.Log", 0),
                                    ("ack", 3, F.TYPE_MESSAGE, opt, ".peer.Ack", 0),
                                    ("general_state", 5, F.TYPE_MESSAGE, opt, ".peer.GeneralState", 0)])
    frm.oneof_decl.add(name="payload")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    return {n: message_factory.GetMessageClass(pool.FindMessageTypeByName("peer." + n)) for n in ("ToSplitflap", "FromSplitflap")}


def frame(payload):
    crc = zlib.crc32(payload) & 0xFFFFFFFF
    return (cobs.encode(payload + crc.to_bytes(4, "little")) + b"\0").hex()


def main():
    types = build()
    for line in sys.stdin:
        req = json.loads(line)
        op = req["op"]
        if op == "to":
            m = types["ToSplitflap"](nonce=req["nonce"])
            if req.get("request_state"):
                m.request_state.SetInParent()
            else:
                m.splitflap_config.SetInParent()
                for t, mv, rs in req["config"]:
                    m.splitflap_config.modules.add(target_flap_index=t, movement_nonce=mv, reset_nonce=rs)
            out = {"frame": frame(m.SerializeToString())}
        elif op.startswith("from_"):
            m = types["FromSplitflap"]()
            if op == "from_state":
                m.splitflap_state.SetInParent()
                for s, f, mv, h, u, mi in req["modules"]:
                    m.splitflap_state.modules.add(state=s, flap_index=f, moving=mv, home_state=h,
                                                  count_unexpected_home=u, count_missed_home=mi)
                m.splitflap_state.loopbacks_ok = req.get("loopbacks_ok", False)
            elif op == "from_ack":
                m.ack.nonce = req["nonce"]
            elif op == "from_log":
                m.log.msg = req["msg"]
            elif op == "from_general":
                m.general_state.serial_protocol_version = req["version"]
                m.general_state.uptime_millis = req["uptime"]
                m.general_state.flap_character_set = req["charset"].encode()
            out = {"frame": frame(m.SerializeToString())}
        elif op == "parse_to":
            decoded = cobs.decode(bytes.fromhex(req["frame"]).rstrip(b"\0"))
            payload, crc = decoded[:-4], int.from_bytes(decoded[-4:], "little")
            m = types["ToSplitflap"].FromString(payload)
            out = {"crc_ok": crc == (zlib.crc32(payload) & 0xFFFFFFFF), "nonce": m.nonce,
                   "config": [[x.target_flap_index, x.movement_nonce, x.reset_nonce] for x in m.splitflap_config.modules],
                   "request_state": m.HasField("request_state")}
        sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
