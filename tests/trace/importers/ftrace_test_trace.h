#pragma once
// Builds Perfetto traces of single ftrace events for the importer tests: one packet per event,
// so a test lists its events and the payload layouts it checks, nothing else.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"

namespace tw::importer_testing {

// Appends a packet to `trace` holding one ftrace event on `cpu` at `ts` by thread `pid`, its
// payload `body` in FtraceEvent field `field` (pf::ftrace_event::kPrint, kSchedWaking, ...),
// with common_flags when given.
inline void AddFtraceEvent(proto::Writer& trace, uint32_t cpu, int64_t ts, int32_t pid,
                           uint32_t field, const proto::Writer& body,
                           std::optional<uint32_t> common_flags = std::nullopt) {
  proto::Writer event;
  event.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  event.Varint(pf::ftrace_event::kPid, static_cast<uint64_t>(pid));
  if (common_flags) event.Varint(pf::ftrace_event::kCommonFlags, *common_flags);
  event.Message(field, body);
  proto::Writer bundle;
  bundle.Varint(pf::ftrace_event_bundle::kCpu, cpu);
  bundle.Message(pf::ftrace_event_bundle::kEvent, event);
  proto::Writer packet;
  packet.Message(pf::trace_packet::kFtraceEvents, bundle);
  trace.Message(pf::trace::kPacket, packet);
}

// Loads what `trace` holds; on error fails the test and returns nullptr.
inline std::unique_ptr<LoadedTrace> LoadOrFail(proto::Writer& trace) {
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

}  // namespace tw::importer_testing
