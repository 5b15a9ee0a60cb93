#include "libs/trace/importers/systrace/ftrace_text_line.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

FtraceTextLine MustParse(std::string_view text) {
  FtraceTextLine line;
  EXPECT_TRUE(ParseFtraceTextLine(text, &line)) << text;
  return line;
}

TEST(FtraceTextLine, WithTgidAndFlags) {
  const FtraceTextLine l = MustParse(
      "           <...>-1234  (  1200) [001] d..3  1234.567890: sched_switch: prev_comm=a "
      "prev_pid=1");
  EXPECT_EQ(l.task, "<...>");
  EXPECT_EQ(l.pid, 1234u);
  ASSERT_TRUE(l.tgid);
  EXPECT_EQ(*l.tgid, 1200u);
  EXPECT_EQ(l.cpu, 1u);
  EXPECT_EQ(l.ts, 1234567890000);
  EXPECT_EQ(l.event, "sched_switch");
  EXPECT_EQ(l.args, "prev_comm=a prev_pid=1");
}

TEST(FtraceTextLine, UnknownTgidAndNoTgidColumn) {
  FtraceTextLine l = MustParse("  <idle>-0     (-----) [006] ....    10.258854: sched_switch: x=1");
  EXPECT_EQ(l.task, "<idle>");
  EXPECT_EQ(l.pid, 0u);
  EXPECT_FALSE(l.tgid);
  EXPECT_EQ(l.cpu, 6u);
  EXPECT_EQ(l.ts, 10258854000);

  l = MustParse("  <idle>-0     [001] d..2  1234.000001: sched_switch: prev_comm=swapper/1");
  EXPECT_FALSE(l.tgid);
  EXPECT_EQ(l.ts, 1234000001000);
}

TEST(FtraceTextLine, OldFormatWithoutFlags) {
  const FtraceTextLine l =
      MustParse("     kworker/0:0-13696 [000] 50260.647590: sched_wakeup: comm=mmcqd/0 pid=95");
  EXPECT_EQ(l.task, "kworker/0:0");
  EXPECT_EQ(l.pid, 13696u);
  EXPECT_EQ(l.ts, 50260647590000);
  EXPECT_EQ(l.event, "sched_wakeup");
}

TEST(FtraceTextLine, FiveCharacterFlagsWithHexPreemptCount) {
  const FtraceTextLine l = MustParse(
      "chrome-10830 ( 10830) [000] dNsa. 4213.033572: tracing_mark_write: B|10830|hex_preempt");
  EXPECT_EQ(l.task, "chrome");
  EXPECT_EQ(l.ts, 4213033572000);
  EXPECT_EQ(l.event, "tracing_mark_write");
  EXPECT_EQ(l.args, "B|10830|hex_preempt");
}

TEST(FtraceTextLine, TaskNamesWithDashesDigitsAndSpaces) {
  EXPECT_EQ(MustParse(" irq/409-inv_irq-99    [000] 5.1: sched_switch: a=1").task,
            "irq/409-inv_irq");
  const FtraceTextLine l = MustParse("task-1234-567    ( 567) [000] ....   100.000000: 0: E|567");
  EXPECT_EQ(l.task, "task-1234");
  EXPECT_EQ(l.pid, 567u);
  EXPECT_EQ(MustParse("Signal Catcher-880 [002] .... 1.5: foo: a=1").task, "Signal Catcher");
  // The old print event is named after its caller's address, 0.
  EXPECT_EQ(MustParse("  SurfaceFlinger-236   [000] 50265.647620: 0: B|124|x").event, "0");
}

TEST(FtraceTextLine, FlagsRunIntoTheTimestampLikeTraceProcessor) {
  // No space between flags and timestamp: the pattern takes the longest flags that still leave
  // a timestamp, so a digit can end up in the flags.
  EXPECT_EQ(
      MustParse("kworker/u16:2-78 (   78) [005] .... 316.196730: tracing_mark_write: B|78|x").ts,
      316196730000);
  EXPECT_EQ(
      MustParse("kworker/u16:1-77 (   77) [004] ....316.196720: tracing_mark_write: B|77|x").ts,
      16196720000);
}

TEST(FtraceTextLine, EventNamesKeepInnerColons) {
  const FtraceTextLine l = MustParse("a-1 [000] 1.0: sched:sched_switch: x=1");
  EXPECT_EQ(l.event, "sched:sched_switch");
  EXPECT_EQ(l.args, "x=1");
}

TEST(FtraceTextLine, EmptyArgs) {
  const FtraceTextLine l = MustParse("a-1 [000] 1.0: binder_lock:");
  EXPECT_EQ(l.event, "binder_lock");
  EXPECT_EQ(l.args, "");
}

TEST(FtraceTextLine, RejectsWhatIsNotAnEventLine) {
  FtraceTextLine l;
  for (std::string_view bad :
       {"", "# tracer: nop", "hello world", "proc/1/task/1", "a-1 [000] 1.0 sched_switch: x",
        "a-1 [000] abc: sched_switch: x", "a-1 [x] 1.0: e: x", "a-1[000] 1.0: e: x",
        "a-1 [000] 1.0: :", "a-99999999999 [000] 1.0: e: x", "a-1 [99999999999] 1.0: e: x",
        "a-1 [000] 99999999999999999999.0: e: x", "\x01\x02-\xff [000]"}) {
    EXPECT_FALSE(ParseFtraceTextLine(bad, &l)) << bad;
  }
}

TEST(FtraceTextTimestamp, ExactNanoseconds) {
  // 1.7% of microsecond timestamps come out one nanosecond short through a double; these do.
  EXPECT_EQ(ParseFtraceTimestamp("0.000001"), 1000);
  EXPECT_EQ(ParseFtraceTimestamp("50260.929925"), 50260929925000);
  EXPECT_EQ(ParseFtraceTimestamp("1.123456789"), 1123456789);
  EXPECT_EQ(ParseFtraceTimestamp("1.1234567891"), 1123456789);  // sub-ns digits dropped
  EXPECT_EQ(ParseFtraceTimestamp("9223372035.5"), 9223372035500000000);
  EXPECT_FALSE(ParseFtraceTimestamp("9223372036.0"));
  EXPECT_FALSE(ParseFtraceTimestamp("1."));
  EXPECT_FALSE(ParseFtraceTimestamp(".5"));
  EXPECT_FALSE(ParseFtraceTimestamp("1.5x"));
}

}  // namespace
}  // namespace tw
