// __intrinsic_stdlib_objects: every stdlib module and object, described from the modules' own
// doc comments — over a module written here (registered for the test) and over the real stdlib.

#include "libs/trace/query/stdlib_objects.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/trace/stdlib/stdlib.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Descriptions with multi-byte characters straddling the 160-byte cut.
const std::string kLongDoc = std::string(159, 'x') + "\xc3\xa9 and more";

const std::string kModuleSql = R"sql(-- Objects of every kind, for the stdlib objects test.

-- Widgets seen, one per row.
CREATE PERFETTO TABLE coresql_widgets(
  -- Widget id.
  id LONG,
  -- When it was seen.
  ts TIMESTAMP
) AS SELECT 1 AS id, 2 AS ts;

-- )sql" + kLongDoc + R"sql(
CREATE PERFETTO VIEW coresql_widget_view(
  -- Same id.
  id LONG
) AS SELECT id FROM coresql_widgets;

CREATE PERFETTO TABLE _coresql_internal AS SELECT 1 AS x;

-- Doubles a number.
CREATE PERFETTO FUNCTION coresql_twice(
  -- The number.
  n LONG
)
-- Twice n.
RETURNS LONG AS SELECT $n * 2;

-- Widgets after a time.
CREATE PERFETTO FUNCTION coresql_widgets_after(
  -- The time.
  after TIMESTAMP
)
RETURNS TABLE(
  -- Widget id.
  id LONG
) AS SELECT id FROM coresql_widgets WHERE ts > $after;

-- Picks a column.
CREATE PERFETTO MACRO _coresql_pick(
  -- Table.
  t TableOrSubquery,
  -- Column.
  c ColumnName
)
RETURNS Expr AS $c;
)sql";

const SqlModule kModule{"coresql_test.objects", "coresql_test/objects.sql", kModuleSql};

class StdlibObjectsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { AddSqlModuleForTesting(&kModule); }
  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    db_ = testing::OpenOrDie(storage_.get());
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(StdlibObjectsTest, OneRowPerModuleAndObjectWithKindsAndExposure) {
  EXPECT_THAT(testing::Rows(*db_, R"(
    SELECT package, module, name, qualified_name, object_type, exposed, return_type
    FROM __intrinsic_stdlib_objects WHERE module = 'coresql_test.objects')"),
              ElementsAre(
                  ElementsAre("coresql_test", "coresql_test.objects", "coresql_test.objects",
                              "coresql_test.objects", "MODULE", "1", ""),
                  ElementsAre("coresql_test", "coresql_test.objects", "coresql_widgets",
                              "coresql_test.objects.coresql_widgets", "TABLE", "1", ""),
                  ElementsAre("coresql_test", "coresql_test.objects", "coresql_widget_view",
                              "coresql_test.objects.coresql_widget_view", "VIEW", "1", ""),
                  ElementsAre("coresql_test", "coresql_test.objects", "_coresql_internal",
                              "coresql_test.objects._coresql_internal", "TABLE", "0", ""),
                  ElementsAre("coresql_test", "coresql_test.objects", "coresql_twice",
                              "coresql_test.objects.coresql_twice", "FUNCTION", "1", "LONG"),
                  ElementsAre("coresql_test", "coresql_test.objects", "coresql_widgets_after",
                              "coresql_test.objects.coresql_widgets_after", "TABLE_FUNCTION", "1",
                              "TABLE"),
                  ElementsAre("coresql_test", "coresql_test.objects", "_coresql_pick",
                              "coresql_test.objects._coresql_pick", "MACRO", "0", "Expr")));
}

TEST_F(StdlibObjectsTest, ColumnsAndArgumentsAreJson) {
  EXPECT_THAT(testing::Rows(*db_, R"(
    SELECT c.value ->> 'name', c.value ->> 'type', c.value ->> 'description'
    FROM __intrinsic_stdlib_objects o, json_each(o.cols) c
    WHERE o.qualified_name = 'coresql_test.objects.coresql_widgets')"),
              ElementsAre(ElementsAre("id", "LONG", "Widget id."),
                          ElementsAre("ts", "TIMESTAMP", "When it was seen.")));
  EXPECT_THAT(testing::Rows(*db_, R"(
    SELECT a.value ->> 'name', a.value ->> 'type', o.return_description
    FROM __intrinsic_stdlib_objects o, json_each(o.args) a
    WHERE o.name = '_coresql_pick' OR o.name = 'coresql_twice' ORDER BY 1)"),
              ElementsAre(ElementsAre("c", "ColumnName", ""), ElementsAre("n", "LONG", "Twice n."),
                          ElementsAre("t", "TableOrSubquery", "")));
}

TEST_F(StdlibObjectsTest, SummaryAndShortDescription) {
  const std::string summary = testing::Scalar(*db_, R"(
    SELECT summary FROM __intrinsic_stdlib_objects
    WHERE qualified_name = 'coresql_test.objects.coresql_twice')");
  EXPECT_EQ(summary,
            "Package: coresql_test\nModule: coresql_test.objects\nName: coresql_twice\n"
            "Qualified name: coresql_test.objects.coresql_twice\n"
            "Search aliases: coresql test coresql test objects coresql twice\n"
            "Kind: public FUNCTION\nDescription: Doubles a number.\nArguments:\n"
            "- n (LONG): The number.\nReturns: LONG: Twice n.");
  // The cut at 160 bytes falls inside "é": the whole character goes.
  EXPECT_EQ(testing::Scalar(*db_, R"(
    SELECT short_description FROM __intrinsic_stdlib_objects
    WHERE name = 'coresql_widget_view')"),
            std::string(159, 'x'));
}

TEST_F(StdlibObjectsTest, EveryRegisteredModuleIsListed) {
  EXPECT_EQ(testing::Scalar(*db_, "SELECT COUNT(*) FROM __intrinsic_stdlib_objects "
                                  "WHERE object_type = 'MODULE'"),
            std::to_string(SqlModulesWithPrefix("").size()));
  // A real module's function, as its doc comments describe it.
  EXPECT_THAT(testing::Rows(*db_, R"(
    SELECT object_type, return_type, a.value ->> 'name'
    FROM __intrinsic_stdlib_objects o, json_each(o.args) a
    WHERE qualified_name = 'time.conversion.time_from_ns')"),
              ElementsAre(ElementsAre("FUNCTION", "TIMESTAMP", "nanos")));
}

}  // namespace
}  // namespace tw
