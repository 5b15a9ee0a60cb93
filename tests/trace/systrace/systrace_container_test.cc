#include "libs/trace/importers/systrace/systrace_container.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tw {
namespace {

// Classifies each line of `text`; returns "F:<line>" for ftrace lines, "T" for the TRACE:
// marker, "P:<line>"/"PS" for process dumps, "O" for overlong ftrace, nothing for ignored.
std::vector<std::string> Classify(SystraceContainer& c, const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    TextLine line{std::string_view(text).substr(pos, nl - pos), false, {}};
    const SystraceContainer::Item item = c.Classify(line);
    switch (item.kind) {
      case SystraceContainer::Kind::kIgnore:
        break;
      case SystraceContainer::Kind::kTraceMarker:
        out.push_back("T");
        break;
      case SystraceContainer::Kind::kFtraceLine:
        out.push_back("F:" + std::string(item.text));
        break;
      case SystraceContainer::Kind::kProcessDumpStart:
        out.push_back("PS");
        break;
      case SystraceContainer::Kind::kProcessDumpLine:
        out.push_back("P:" + std::string(item.text));
        break;
      case SystraceContainer::Kind::kOverlongFtrace:
        out.push_back("O");
        break;
    }
    pos = nl + 1;
  }
  return out;
}

using Lines = std::vector<std::string>;

TEST(SystraceContainer, PlainTextWithHeaders) {
  SystraceContainer c;
  EXPECT_EQ(
      Classify(
          c,
          "capturing trace... done\nTRACE:\ncpus=8\n# tracer: nop\n#\n  a-1 [000] 1.0: e: x\n\n"
          "   \n  b-2 [000] 2.0: e: y"),
      (Lines{"F:capturing trace... done", "T", "F:  a-1 [000] 1.0: e: x",
             "F:  b-2 [000] 2.0: e: y"}));
  EXPECT_FALSE(c.is_html());
}

TEST(SystraceContainer, MarkerAndCpusBeforeText) {
  SystraceContainer c;
  EXPECT_EQ(Classify(c, "\nTRACE:\ncpus=16\nx-1 [000] 1.0: e: x"),
            (Lines{"T", "F:x-1 [000] 1.0: e: x"}));
}

TEST(SystraceContainer, AnIdleTaskLineIsNotHtml) {
  SystraceContainer c;
  EXPECT_EQ(Classify(c, "<idle>-0 [000] 1.0: e: x\n<...>-5 [000] 1.0: e: y"),
            (Lines{"F:<idle>-0 [000] 1.0: e: x", "F:<...>-5 [000] 1.0: e: y"}));
  EXPECT_FALSE(c.is_html());
}

TEST(SystraceContainer, ModernHtml) {
  SystraceContainer c;
  const std::string html =
      "<!DOCTYPE html>\n<html><script>var x = 1;</script>\n"
      "<script class=\"trace-data\" type=\"application/text\">\n{\"traceEvents\": []}\n"
      "</script>\n"
      "<script class=\"trace-data\" type=\"application/text\">{\"oneline\": 1}</script>\n"
      "<script class=\"trace-data\" type=\"application/text\">\nPROCESS DUMP\n"
      "USER PID TID CMD\nroot 1 1 init\n  </script>\n"
      "<script class=\"trace-data\" type=\"application/text\">\n# tracer: nop\n"
      "#           TASK-PID    CPU#  ||||    TIMESTAMP  FUNCTION\n"
      "  a-1 [000] 1.0: e: x\n  </script>\n"
      "<script class=\"trace-data\" type=\"application/text\">\n"
      "#           TASK-PID    CPU#  ||||    TIMESTAMP  FUNCTION\n"
      "  b-2 [000] 2.0: e: second block, ignored\n  </script>\n"
      "<script class=\"trace-data\" type=\"application/text\">\nCGROUP DUMP\n1 2 3\n</script>\n"
      "</html>\n";
  EXPECT_EQ(Classify(c, html),
            (Lines{"PS", "P:USER PID TID CMD", "P:root 1 1 init", "F:  a-1 [000] 1.0: e: x"}));
  EXPECT_TRUE(c.is_html());
  EXPECT_TRUE(c.found_ftrace_block());
  EXPECT_EQ(c.skipped_blocks(), 4);
}

TEST(SystraceContainer, LegacyHtmlJavaScriptString) {
  SystraceContainer c;
  const std::string html =
      "<!DOCTYPE html>\n<html>\n<body>\n  <script>\n  'use strict';\n"
      "  var linuxPerfData = \"\\\n"
      "# tracer: nop\\n\\\n"
      "#           TASK-PID    CPU#    TIMESTAMP  FUNCTION\\n\\\n"
      "     hwc_eventmon-336   [000] 50260.929925: 0: C|124|VSYNC|1\\n\\\n"
      "  a-1 [000] 1.0: e: say \\\"hi\\\" \\\\o/\\n\\\n"
      "         \\n\";\n"
      "  </script>\n</body>\n</html>\n";
  EXPECT_EQ(Classify(c, html),
            (Lines{"F:     hwc_eventmon-336   [000] 50260.929925: 0: C|124|VSYNC|1",
                   "F:  a-1 [000] 1.0: e: say \"hi\" \\o/"}));
  EXPECT_TRUE(c.found_ftrace_block());
}

TEST(SystraceContainer, SavedJavaScriptFragmentAsText) {
  SystraceContainer c;
  EXPECT_EQ(Classify(c,
                     "# tracer: nop\\n\\\n  a-1 [000] 1.0: e: x\\n\\\n  b-2 [000] 2.0: e: y\\n\";\n"
                     "after the string"),
            (Lines{"F:  a-1 [000] 1.0: e: x", "F:  b-2 [000] 2.0: e: y"}));
  EXPECT_TRUE(c.done());
}

TEST(SystraceContainer, OverlongLines) {
  SystraceContainer c;
  Classify(c, "<html>\n<script class=\"trace-data\" type=\"application/text\">");
  // A huge JSON line closing its block at the far end.
  TextLine json{"{\"traceEvents\":[", true, "]}</script>"};
  EXPECT_EQ(c.Classify(json).kind, SystraceContainer::Kind::kIgnore);
  EXPECT_EQ(Classify(c,
                     "<script class=\"trace-data\" type=\"application/text\">\n"
                     "# TASK-PID\n  a-1 [000] 1.0: e: x"),
            (Lines{"F:  a-1 [000] 1.0: e: x"}));
  TextLine junk{"aaaa", true, "bbbb"};
  EXPECT_EQ(c.Classify(junk).kind, SystraceContainer::Kind::kOverlongFtrace);
}

TEST(UnescapeJsStringLine, Forms) {
  std::string storage;
  bool closes = false;
  EXPECT_EQ(UnescapeJsStringLine("plain line", false, &closes, &storage), "plain line");
  EXPECT_FALSE(closes);
  EXPECT_EQ(UnescapeJsStringLine("a\\tb\\n\\", false, &closes, &storage), "a\tb");
  EXPECT_FALSE(closes);
  EXPECT_EQ(UnescapeJsStringLine("end\\n\";", false, &closes, &storage), "end");
  EXPECT_TRUE(closes);
  EXPECT_EQ(UnescapeJsStringLine("\";", true, &closes, &storage), "");
  EXPECT_TRUE(closes);
  EXPECT_EQ(UnescapeJsStringLine("odd \\q\\", true, &closes, &storage), "odd \\q");
  EXPECT_FALSE(closes);
}

}  // namespace
}  // namespace tw
