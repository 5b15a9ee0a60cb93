#pragma once
// Decodes winscope packets (Android window-system tracing) into WinscopeData events: input
// method dumps (clients, manager service, service), SurfaceFlinger transaction entries and
// layer snapshots, shell transitions, ViewCapture and window manager dumps.
// Every message becomes args by reflection over the winscope schema (schema/winscope.proto),
// named as trace_processor names them, and keeps its raw bytes (base64).

#include <cstdint>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/descriptor_pool.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class WinscopeDecoder {
 public:
  explicit WinscopeDecoder(ImportContext* ctx);

  // TracePacket.surfaceflinger_transactions.
  void DecodeSurfaceFlingerTransactions(const PacketContext& packet, const proto::Field& field);
  // TracePacket.surfaceflinger_layers_snapshot: layers, displays, and what winscope computes
  // from them (visibility, drawing order, rects).
  void DecodeSurfaceFlingerLayers(const PacketContext& packet, const proto::Field& field);
  // TracePacket.shell_transition and shell_handler_mappings.
  void DecodeShellTransition(const PacketContext& packet, const proto::Field& field);
  void DecodeShellHandlerMappings(const PacketContext& packet, const proto::Field& field);
  // One extension field of TracePacket.winscope_extensions (input method dumps); false if the
  // field is not one of them.
  bool DecodeExtension(const PacketContext& packet, const proto::Field& field);

 private:
  // Args of `bytes`, a message named `type` in the schema. Counts `error_stat` if the bytes do
  // not parse.
  std::vector<Arg> Args(std::string_view type, std::string_view bytes,
                        std::string_view error_stat,
                        const std::vector<uint32_t>* allowed_fields = nullptr);
  StringId Base64(std::string_view bytes);
  void DecodeViewCapture(const PacketContext& packet, const proto::Field& field);
  void DecodeWindowManager(const PacketContext& packet, const proto::Field& field);
  void Push(const PacketContext& packet, WinscopeData data);

  ImportContext* ctx_;
  const DescriptorPool& pool_;
};

}  // namespace tw
