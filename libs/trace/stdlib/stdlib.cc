#include "libs/trace/stdlib/stdlib.h"

#include <algorithm>

namespace tw {

// Each module lives in modules/<dotted_name_with_underscores>.cc and defines one constant, e.g.
//   namespace tw::stdlib_modules {
//   extern const SqlModule kSlicesWithContext;
//   const SqlModule kSlicesWithContext = {"slices.with_context", R"sql( ... )sql"};
//   }
// To add one: create the file, list it in CMakeLists.txt, declare it below and add it to
// AllModules(). Modules named "prelude.*" hold what trace_processor offers without any INCLUDE
// (e.g. following_flow): the query layer runs them when a database opens. An explicit list
// (rather than static self-registration) keeps the set visible in one place and immune to the
// linker dropping unreferenced object files.
namespace stdlib_modules {
extern const SqlModule kAndroidAnrs;
extern const SqlModule kAndroidAutoMultiuser;
extern const SqlModule kAndroidBatteryStats;
extern const SqlModule kAndroidBinder;
extern const SqlModule kAndroidDvfs;
extern const SqlModule kAndroidFramesJankType;
extern const SqlModule kAndroidFramesTimeline;
extern const SqlModule kAndroidFramesTimelineMaxsdk28;
extern const SqlModule kAndroidGarbageCollection;
extern const SqlModule kAndroidInput;
extern const SqlModule kAndroidMonitorContention;
extern const SqlModule kAndroidPackageLookup;
extern const SqlModule kAndroidProcessMetadata;
extern const SqlModule kAndroidSlices;
extern const SqlModule kAndroidStartupStartupEvents;
extern const SqlModule kAndroidStartupStartups;
extern const SqlModule kAndroidStartupStartupsMaxsdk28;
extern const SqlModule kAndroidStartupStartupsMinsdk29;
extern const SqlModule kAndroidStartupStartupsMinsdk33;
extern const SqlModule kAndroidStartupTimeToDisplay;
extern const SqlModule kAndroidSuspend;
extern const SqlModule kAndroidUserList;
extern const SqlModule kAndroidVersion;
extern const SqlModule kCountersIntervals;
extern const SqlModule kIntervalsOverlap;
extern const SqlModule kLinuxCpuFrequency;
extern const SqlModule kLinuxCpuIdle;
extern const SqlModule kPreludeFlow;
extern const SqlModule kSchedLatency;
extern const SqlModule kSchedRunnable;
extern const SqlModule kSchedStates;
extern const SqlModule kSchedThreadLevelParallelism;
extern const SqlModule kSlicesHierarchy;
extern const SqlModule kSlicesSelfDur;
extern const SqlModule kSlicesStack;
extern const SqlModule kSlicesWithContext;
extern const SqlModule kStdMetasqlUnparenthesize;
extern const SqlModule kStdThreadWithContext;
}  // namespace stdlib_modules

namespace {

std::vector<const SqlModule*>& AllModules() {
  static std::vector<const SqlModule*> modules = {
      &stdlib_modules::kAndroidAnrs,
      &stdlib_modules::kAndroidAutoMultiuser,
      &stdlib_modules::kAndroidBatteryStats,
      &stdlib_modules::kAndroidBinder,
      &stdlib_modules::kAndroidDvfs,
      &stdlib_modules::kAndroidFramesJankType,
      &stdlib_modules::kAndroidFramesTimeline,
      &stdlib_modules::kAndroidFramesTimelineMaxsdk28,
      &stdlib_modules::kAndroidGarbageCollection,
      &stdlib_modules::kAndroidInput,
      &stdlib_modules::kAndroidMonitorContention,
      &stdlib_modules::kAndroidPackageLookup,
      &stdlib_modules::kAndroidProcessMetadata,
      &stdlib_modules::kAndroidSlices,
      &stdlib_modules::kAndroidStartupStartupEvents,
      &stdlib_modules::kAndroidStartupStartups,
      &stdlib_modules::kAndroidStartupStartupsMaxsdk28,
      &stdlib_modules::kAndroidStartupStartupsMinsdk29,
      &stdlib_modules::kAndroidStartupStartupsMinsdk33,
      &stdlib_modules::kAndroidStartupTimeToDisplay,
      &stdlib_modules::kAndroidSuspend,
      &stdlib_modules::kAndroidUserList,
      &stdlib_modules::kAndroidVersion,
      &stdlib_modules::kCountersIntervals,
      &stdlib_modules::kIntervalsOverlap,
      &stdlib_modules::kLinuxCpuFrequency,
      &stdlib_modules::kLinuxCpuIdle,
      &stdlib_modules::kPreludeFlow,
      &stdlib_modules::kSchedLatency,
      &stdlib_modules::kSchedRunnable,
      &stdlib_modules::kSchedStates,
      &stdlib_modules::kSchedThreadLevelParallelism,
      &stdlib_modules::kSlicesHierarchy,
      &stdlib_modules::kSlicesSelfDur,
      &stdlib_modules::kSlicesStack,
      &stdlib_modules::kSlicesWithContext,
      &stdlib_modules::kStdMetasqlUnparenthesize,
      &stdlib_modules::kStdThreadWithContext,
  };
  return modules;
}

}  // namespace

void AddSqlModuleForTesting(const SqlModule* module) { AllModules().push_back(module); }

const SqlModule* FindSqlModule(std::string_view name) {
  for (const SqlModule* m : AllModules()) {
    if (m->name == name) return m;
  }
  return nullptr;
}

std::vector<const SqlModule*> SqlModulesWithPrefix(std::string_view prefix) {
  std::vector<const SqlModule*> out;
  for (const SqlModule* m : AllModules()) {
    if (m->name.substr(0, prefix.size()) == prefix) out.push_back(m);
  }
  std::sort(out.begin(), out.end(),
            [](const SqlModule* a, const SqlModule* b) { return a->name < b->name; });
  return out;
}

}  // namespace tw
