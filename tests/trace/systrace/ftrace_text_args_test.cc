#include "libs/trace/importers/systrace/ftrace_text_args.h"

#include <gtest/gtest.h>

#include <string>

namespace tw {
namespace {

std::string Dump(const FtraceTextArgs& args) {
  std::string out;
  for (const auto& [k, v] : args.pairs()) out += std::string(k) + "=[" + std::string(v) + "] ";
  return out;
}

TEST(FtraceTextArgs, SchedSwitch) {
  FtraceTextArgs a(
      "prev_comm=Signal Catcher prev_pid=880 prev_prio=120 prev_state=D|K ==> "
      "next_comm=swapper/0 next_pid=0 next_prio=120");
  EXPECT_EQ(a.Find("prev_comm"), "Signal Catcher");
  EXPECT_EQ(a.FindInt("prev_pid"), 880);
  EXPECT_EQ(a.Find("prev_state"), "D|K");
  EXPECT_EQ(a.Find("next_comm"), "swapper/0");
  EXPECT_EQ(a.FindInt("next_pid"), 0);
  EXPECT_EQ(a.pairs().size(), 7u);
}

TEST(FtraceTextArgs, LeadingTextAndOddValues) {
  EXPECT_EQ(Dump(FtraceTextArgs("work struct 0000abcd: function foo")),
            "buf=[work struct 0000abcd: function foo] ");
  EXPECT_EQ(Dump(FtraceTextArgs("cmd=0x7206 BR_TRANSACTION_COMPLETE")),
            "cmd=[0x7206 BR_TRANSACTION_COMPLETE] ");
  EXPECT_EQ(Dump(FtraceTextArgs("a=b=c d= e=1")), "a=[b=c] d=[] e=[1] ");
  EXPECT_EQ(Dump(FtraceTextArgs("NR 64 (3, 1)")), "buf=[NR 64 (3, 1)] ");
  EXPECT_EQ(Dump(FtraceTextArgs("")), "");
  EXPECT_EQ(Dump(FtraceTextArgs("   ")), "");
  EXPECT_EQ(Dump(FtraceTextArgs("==>")), "");
  EXPECT_EQ(Dump(FtraceTextArgs("=x")), "buf=[=x] ");
}

TEST(FtraceTextArgs, Numbers) {
  FtraceTextArgs a("pid=-5 cpu=000 flags=3d0f00 big=18446744073709551615 neg=-9223372036854775808");
  EXPECT_EQ(a.FindInt("pid"), -5);
  EXPECT_EQ(a.FindInt("cpu"), 0);
  EXPECT_FALSE(a.FindInt("flags"));
  EXPECT_EQ(a.FindUint("flags", true), 0x3d0f00u);
  EXPECT_FALSE(a.FindInt("big"));
  EXPECT_EQ(a.FindUint("big"), 18446744073709551615u);
  EXPECT_EQ(a.FindInt("neg"), INT64_MIN);
  EXPECT_FALSE(a.FindInt("missing"));
  EXPECT_EQ(ParseTextUint("0x1F", true), 31u);
  EXPECT_FALSE(ParseTextUint("0x", true));
  EXPECT_FALSE(ParseTextUint("99999999999999999999", false));
  EXPECT_FALSE(ParseTextInt("-"));
}

}  // namespace
}  // namespace tw
