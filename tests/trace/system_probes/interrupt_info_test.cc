// interrupt_info: IRQ numbers and names → linux_interrupt_mapping (linux.irqs), the first
// name of a number kept, incomplete mappings skipped.

#include <gtest/gtest.h>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace tp = pf::trace_packet;

proto::Writer Mapping(std::optional<uint32_t> irq, std::optional<std::string> name) {
  proto::Writer m;
  if (irq) m.Varint(1, *irq);
  if (name) m.String(2, *name);
  return m;
}

TEST(InterruptInfoTest, MappingsPerNumberFirstNameWins) {
  proto::Writer info;
  info.Message(1, Mapping(27, "arch_timer"));
  info.Message(1, Mapping(3, "arm-pmu"));
  info.Message(1, Mapping(27, "renamed"));   // a number already named
  info.Message(1, Mapping(40, std::nullopt));  // no name
  info.Message(1, Mapping(std::nullopt, "orphan"));
  auto t = TraceBuilder().Add(tp::kInterruptInfo, info, 100).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "INCLUDE PERFETTO MODULE linux.irqs;"
                     "SELECT irq_id, name, machine_id FROM linux_interrupt_mapping "
                     "ORDER BY irq_id"),
            (Grid{{"3", "arm-pmu", "0"}, {"27", "arch_timer", "0"}}));
}

}  // namespace
}  // namespace tw
