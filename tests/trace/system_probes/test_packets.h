#pragma once
// Builds small Perfetto traces for the system-probe tests and queries them.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"

namespace tw::testing {

// A trace under construction: each Add() appends one TracePacket.
class TraceBuilder {
 public:
  // A packet holding `payload` as TracePacket field `field`, at `ts` (if >= 0) on `sequence`.
  TraceBuilder& Add(uint32_t field, const proto::Writer& payload, int64_t ts = -1,
                    uint32_t sequence = 1) {
    proto::Writer packet;
    if (ts >= 0) packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, sequence);
    packet.Message(field, payload);
    trace_.Message(pf::trace::kPacket, packet);
    return *this;
  }
  // A packet with arbitrary content.
  TraceBuilder& AddRaw(const proto::Writer& packet) {
    trace_.Message(pf::trace::kPacket, packet);
    return *this;
  }
  std::unique_ptr<LoadedTrace> Load() {
    auto t = LoadTraceBytes(trace_.data());
    EXPECT_TRUE(t.ok()) << t.status();
    return t.ok() ? std::move(*t) : nullptr;
  }

 private:
  proto::Writer trace_;
};

// Rows of a query, each cell rendered as text ("NULL" for null, integers without decimals).
inline std::vector<std::vector<std::string>> Rows(LoadedTrace& t, const std::string& sql) {
  std::vector<std::vector<std::string>> out;
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << sql;
  if (!r.ok()) return out;
  for (const auto& row : r->rows) {
    std::vector<std::string> cells;
    for (const SqlValue& v : row) {
      switch (v.type) {
        case SqlValue::Type::kNull: cells.push_back("NULL"); break;
        case SqlValue::Type::kInt: cells.push_back(std::to_string(v.int_value)); break;
        case SqlValue::Type::kDouble: {
          // Whole numbers print without a fraction so expectations stay readable.
          const double d = v.double_value;
          cells.push_back(d == static_cast<double>(static_cast<int64_t>(d))
                              ? std::to_string(static_cast<int64_t>(d))
                              : std::to_string(d));
          break;
        }
        case SqlValue::Type::kString: cells.push_back(v.string_value); break;
      }
    }
    out.push_back(std::move(cells));
  }
  return out;
}

using Grid = std::vector<std::vector<std::string>>;

}  // namespace tw::testing
