#pragma once
// Decodes ProtoLog packets (TracePacket extension fields protolog_message and
// protolog_viewer_config). Messages carry only a message id and parameters; the viewer config
// holds their formats. Configs are pushed at the start of time so every message can be
// formatted when routed, wherever the config sits in the file. String parameters and stack
// traces are interned per sequence (InternedData extensions) and resolved here.

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class ProtoLogDecoder {
 public:
  explicit ProtoLogDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeMessage(const PacketContext& packet, const proto::Field& field);
  void DecodeViewerConfig(const PacketContext& packet, const proto::Field& field);

 private:
  ImportContext* ctx_;
};

}  // namespace tw
