// The CSV rules here are taken from trace_processor's output in ../shared/difftests/*/expected.csv;
// each test names the expected.csv line it mirrors, so a rule can be re-checked at its source.

#include "libs/trace/query/result_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <regex>
#include <sstream>
#include <string>

namespace tw {
namespace {

using ::testing::HasSubstr;

QueryResult Result(std::vector<std::string> columns, std::vector<std::vector<SqlValue>> rows) {
  QueryResult r;
  r.columns = std::move(columns);
  r.rows = std::move(rows);
  return r;
}

// --- FormatCsv ---

TEST(FormatCsvOutputs, ResultSetsAreSeparatedByOneBlankLine) {
  QueryResult r;
  r.outputs.push_back(Result({"a"}, {{SqlValue::Int(1)}}));
  r.outputs.push_back(Result({"b", "c"}, {}));
  EXPECT_EQ(FormatCsvOutputs(r), "\"a\"\n1\n\n\"b\",\"c\"\n");
  EXPECT_EQ(FormatCsvOutputs(QueryResult()), "");
}

TEST(FormatCsv, HeaderIsQuotedNamesJoinedByComma) {
  // Parsing__all_data_source_flushed_metadata: "name","int_value"
  EXPECT_EQ(FormatCsv(Result({"name", "int_value"}, {})), "\"name\",\"int_value\"\n");
}

TEST(FormatCsv, MixedRowLikeChromeMetadata) {
  // Parsing__chrome_metadata: "cr-a-channel","single",3,"[NULL]"
  QueryResult r = Result({"name", "key_type", "int_value", "str_value"},
                         {{SqlValue::String("cr-a-channel"), SqlValue::String("single"),
                           SqlValue::Int(3), SqlValue::Null()}});
  EXPECT_EQ(FormatCsv(r),
            "\"name\",\"key_type\",\"int_value\",\"str_value\"\n"
            "\"cr-a-channel\",\"single\",3,\"[NULL]\"\n");
}

TEST(FormatCsv, IntegersAreBare) {
  // Parsing__ts_desc_filter...: 81492536383477
  EXPECT_EQ(FormatCsvValue(SqlValue::Int(81492536383477)), "81492536383477");
  EXPECT_EQ(FormatCsvValue(SqlValue::Int(-1)), "-1");
  EXPECT_EQ(FormatCsvValue(SqlValue::Int(std::numeric_limits<int64_t>::min())),
            "-9223372036854775808");
  EXPECT_EQ(FormatCsvValue(SqlValue::Int(std::numeric_limits<int64_t>::max())),
            "9223372036854775807");
}

TEST(FormatCsv, NullIsQuotedBracketNull) {
  EXPECT_EQ(FormatCsvValue(SqlValue::Null()), "\"[NULL]\"");
}

TEST(FormatCsv, DoublesArePrintfFixedWithSixDecimals) {
  // Every real in the expected.csv files has exactly six decimals: 0.000000, 0.100000,
  // 1.000000, 2.718280, 3.141593, -4.500000, -13.500000, 1327800000000.000000,
  // 16637390000000.000000 — no exponent form anywhere.
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(0)), "0.000000");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(0.1)), "0.100000");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(1.0)), "1.000000");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(2.71828)), "2.718280");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(std::numbers::pi)), "3.141593");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(-13.5)), "-13.500000");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(1327800000000.0)), "1327800000000.000000");
}

TEST(FormatCsv, DoubleExtremesFollowPrintf) {
  // Small values round to zero and large ones print every integer digit, as "%f" does.
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(1e-9)), "0.000000");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(-1e-9)), "-0.000000");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(0.0000006)), "0.000001");  // rounded, not cut
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(1e20)), "100000000000000000000.000000");
  std::string max = FormatCsvValue(SqlValue::Double(std::numeric_limits<double>::max()));
  EXPECT_EQ(max.size(), 309u + 7u);  // 309 integer digits + ".000000"
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(-std::numeric_limits<double>::infinity())), "-inf");
  EXPECT_EQ(FormatCsvValue(SqlValue::Double(std::numeric_limits<double>::quiet_NaN())), "nan");
}

TEST(FormatCsv, StringsAreQuotedWithoutEscaping) {
  // AndroidStdlib__android_slices_standardization_for_aggregation:
  //   "+job=<num>:"com.google.android.apps.internal.betterbug""
  EXPECT_EQ(FormatCsvValue(SqlValue::String("+job=<num>:\"com.google.android.apps.internal."
                                            "betterbug\"")),
            "\"+job=<num>:\"com.google.android.apps.internal.betterbug\"\"");
  // Commas stay inside the quotes: "cr-a-enabled_categories","single","[NULL]","cat1,cat2,cat3"
  EXPECT_EQ(FormatCsvValue(SqlValue::String("cat1,cat2,cat3")), "\"cat1,cat2,cat3\"");
  EXPECT_EQ(FormatCsvValue(SqlValue::String("")), "\"\"");
  // The literal text "[NULL]" is indistinguishable from NULL, as in trace_processor.
  EXPECT_EQ(FormatCsvValue(SqlValue::String("[NULL]")), FormatCsvValue(SqlValue::Null()));
}

TEST(FormatCsv, NewlinesInStringsAreWrittenRaw) {
  // Parsing__config_metadata: "trace_config_pbtxt","trace_uuid_msb: ...<newline>..." spans lines.
  EXPECT_EQ(FormatCsvValue(SqlValue::String("a: 1\nb: 2\n")), "\"a: 1\nb: 2\n\"");
}

TEST(FormatCsv, EmbeddedNulEndsTheString) {
  // trace_processor prints strings as C strings.
  EXPECT_EQ(FormatCsvValue(SqlValue::String(std::string("ab\0cd", 5))), "\"ab\"");
}

TEST(FormatCsv, ZeroRowsStillHaveAHeader) {
  EXPECT_EQ(FormatCsv(Result({"ts", "dur"}, {})), "\"ts\",\"dur\"\n");
}

#ifdef TW_SHARED_DIR
// Guards the double rule against the real corpus: any bare number with a decimal point in any
// expected.csv must have exactly six decimals and no exponent.
TEST(FormatCsv, EveryRealInTheDiffTestsHasSixDecimals) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(TW_SHARED_DIR) / "difftests";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no difftests at " << dir;
  // Fields are split on ',' (strings are unescaped, so a field that starts or ends inside a
  // string keeps its quote and does not look like a number).
  const std::regex number_like(R"(-?[0-9]+\.[0-9]*([eE][-+]?[0-9]+)?)");
  const std::regex printf_f(R"(-?[0-9]+\.[0-9]{6})");
  int reals = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path() / "expected.csv");
    std::string line;
    while (std::getline(in, line)) {
      std::stringstream fields(line);
      std::string field;
      while (std::getline(fields, field, ',')) {
        while (!field.empty() && std::isspace(static_cast<unsigned char>(field.back()))) {
          field.pop_back();
        }
        if (!std::regex_match(field, number_like)) continue;
        ++reals;
        EXPECT_TRUE(std::regex_match(field, printf_f)) << entry.path().filename() << ": " << field;
        // And our formatter reproduces the text from its value.
        EXPECT_EQ(FormatCsvValue(SqlValue::Double(std::stod(field))), field);
      }
    }
  }
  EXPECT_GT(reals, 0);
}
#endif

// --- CsvEquivalent ---

TEST(CsvEquivalent, IgnoresBlankLinesAndSurroundingWhitespace) {
  std::string diff = "stale";
  EXPECT_TRUE(CsvEquivalent("\n\n  \"ts\",\"dur\"\r\n   1,2  \n\n\t3,4\n\n",
                            "\"ts\",\"dur\"\n1,2\n3,4", &diff));
  EXPECT_EQ(diff, "");
}

TEST(CsvEquivalent, ComparesDoublesAsText) {
  // trace_processor's runner compares text: 1.0 is not 1.000000.
  EXPECT_FALSE(CsvEquivalent("\"v\"\n1.000000\n", "\"v\"\n1.0\n", nullptr));
  EXPECT_FALSE(CsvEquivalent("\"v\"\n1\n", "\"v\"\n1.000000\n", nullptr));
}

TEST(CsvEquivalent, WhitespaceInsideALineMatters) {
  EXPECT_FALSE(CsvEquivalent("\"a\",\"b\"\n1,2\n", "\"a\", \"b\"\n1,2\n", nullptr));
}

TEST(CsvEquivalent, DiffNamesFirstDifferingLine) {
  std::string diff;
  EXPECT_FALSE(CsvEquivalent("\"x\"\n1\n2\n3\n", "\"x\"\n1\n5\n3\n", &diff));
  EXPECT_EQ(diff.substr(0, diff.find('\n')), "first difference at line 3 of 4");
  EXPECT_THAT(diff, HasSubstr("expected: 2"));
  EXPECT_THAT(diff, HasSubstr("actual:   5"));
}

TEST(CsvEquivalent, DiffReportsMissingAndExtraRows) {
  std::string diff;
  EXPECT_FALSE(CsvEquivalent("\"x\"\n1\n2\n", "\"x\"\n1\n", &diff));
  EXPECT_EQ(diff.substr(0, diff.find('\n')), "expected 3 lines, got 2; first difference at line 3");
  EXPECT_THAT(diff, HasSubstr("actual:   (no line)"));
  EXPECT_FALSE(CsvEquivalent("\"x\"\n", "\"x\"\n7\n", &diff));
  EXPECT_THAT(diff, HasSubstr("expected: (no line)"));
}

TEST(CsvEquivalent, DiffIsShort) {
  std::string expected = "\"x\"\n", actual = "\"x\"\n";
  for (int i = 0; i < 100; ++i) {
    expected += std::to_string(i) + "\n";
    actual += std::to_string(i + 1000) + std::string(500, 'z') + "\n";
  }
  std::string diff;
  EXPECT_FALSE(CsvEquivalent(expected, actual, &diff));
  EXPECT_LT(diff.size(), 1000u);
  EXPECT_THAT(diff, HasSubstr("bytes)"));
}

TEST(CsvEquivalent, FormatCsvOutputMatchesIndentedExpectation) {
  QueryResult r = Result({"name", "value"}, {{SqlValue::String("a"), SqlValue::Double(2.5)},
                                             {SqlValue::Null(), SqlValue::Int(-4)}});
  const char* expected = R"(
    "name","value"
    "a",2.500000
    "[NULL]",-4
  )";
  std::string diff;
  EXPECT_TRUE(CsvEquivalent(expected, FormatCsv(r), &diff)) << diff;
}

// --- FormatTable ---

TEST(FormatTable, AlignsColumnsAndCountsRows) {
  QueryResult r = Result({"name", "dur"}, {{SqlValue::String("a"), SqlValue::Int(5)},
                                           {SqlValue::String("longer"), SqlValue::Int(12345)}});
  EXPECT_EQ(FormatTable(r),
            "name   |   dur\n"
            "-------+------\n"
            "a      |     5\n"
            "longer | 12345\n"
            "(2 rows)\n");
}

TEST(FormatTable, SingularAndTruncatedFooters) {
  QueryResult r = Result({"x"}, {{SqlValue::Int(1)}});
  EXPECT_THAT(FormatTable(r), HasSubstr("(1 row)\n"));
  r.truncated = true;
  EXPECT_THAT(FormatTable(r), HasSubstr("(1 row, truncated)\n"));
  EXPECT_EQ(FormatTable(QueryResult{}), "(0 rows)\n");
}

TEST(FormatTable, NullsDoublesAndControlCharacters) {
  QueryResult r = Result({"s", "d"}, {{SqlValue::String("a\tb\nc"), SqlValue::Double(0.1)},
                                      {SqlValue::Null(), SqlValue::Double(1e-9)},
                                      {SqlValue::String("z"), SqlValue::Double(2)}});
  std::string t = FormatTable(r);
  EXPECT_EQ(t,
            "s       |     d\n"
            "--------+------\n"
            "a\\tb\\nc |   0.1\n"
            "[NULL]  | 1e-09\n"
            "z       |   2.0\n"
            "(3 rows)\n");
}

TEST(FormatTable, CutsWideCellsOnCharacterBoundaries) {
  // "é" is two bytes; widths count characters.
  QueryResult r = Result({"s"}, {{SqlValue::String("ééééééééééé")}, {SqlValue::String("ab")}});
  EXPECT_EQ(FormatTable(r, 8),
            "s\n"
            "--------\n"
            "ééééé...\n"
            "ab\n"
            "(2 rows)\n");
}

// --- FormatJson ---

TEST(FormatJson, Shape) {
  QueryResult r =
      Result({"ts", "name", "v"},
             {{SqlValue::Int(9007199254740993), SqlValue::String("x"), SqlValue::Null()}});
  EXPECT_EQ(FormatJson(r), R"({"columns":["ts","name","v"],"rows":[[9007199254740993,"x",null]],)"
                           R"("truncated":false})");
  r.rows.clear();
  r.truncated = true;
  EXPECT_EQ(FormatJson(r), R"({"columns":["ts","name","v"],"rows":[],"truncated":true})");
}

TEST(FormatJson, Doubles) {
  QueryResult r = Result({"d"}, {{SqlValue::Double(0.1)},
                                 {SqlValue::Double(2)},
                                 {SqlValue::Double(-13.5)},
                                 {SqlValue::Double(1e20)},
                                 {SqlValue::Double(1e-9)},
                                 {SqlValue::Double(std::numeric_limits<double>::quiet_NaN())},
                                 {SqlValue::Double(std::numeric_limits<double>::infinity())}});
  EXPECT_EQ(FormatJson(r),
            R"({"columns":["d"],"rows":[[0.1],[2.0],[-13.5],[1e+20],[1e-09],[null],[null]],)"
            R"("truncated":false})");
}

TEST(FormatJson, StringEscaping) {
  EXPECT_EQ(JsonQuote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(JsonQuote("\n\r\t\b\f"), R"("\n\r\t\b\f")");
  EXPECT_EQ(JsonQuote(std::string("\x01\x1f\0", 3)), R"("\u0001\u001f\u0000")");
  EXPECT_EQ(JsonQuote("/"), "\"/\"");
}

TEST(FormatJson, UnicodePassesThroughAndInvalidBytesAreReplaced) {
  EXPECT_EQ(JsonQuote("héllo ✓ 😀"), "\"héllo ✓ 😀\"");
  EXPECT_EQ(JsonQuote("a\xff"
                      "b"),
            "\"a\xEF\xBF\xBD"
            "b\"");
  // Truncated sequence, overlong encoding and an encoded surrogate are all invalid.
  EXPECT_EQ(JsonQuote("\xE2\x9C"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonQuote("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonQuote("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

}  // namespace
}  // namespace tw
