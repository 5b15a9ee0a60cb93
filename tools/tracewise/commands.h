#pragma once
// Subcommands of the `tracewise` CLI. Each takes the arguments after its name and returns the
// process exit code.

#include <string>
#include <vector>

namespace tw::cli {

using Args = std::vector<std::string>;

int RunAnalyze(const Args& args);
int RunStrategy(const Args& args);
int RunQuery(const Args& args);
int RunSchema(const Args& args);
int RunInfo(const Args& args);
int RunBench(const Args& args);
// `bench --includes` (cmd_bench_includes.cc): cold INCLUDE time of every stdlib module.
int RunBenchIncludes(const std::string& trace, int runs, bool check, bool json);
int RunBenchIntervals(int runs, bool json);
int RunSynthSched(const Args& args);
int RunTracegen(const Args& args);
int RunSkillCommand(const Args& args);
int RunLlm(const Args& args);
int RunChat(const Args& args);
int RunMcp(const Args& args);
int RunAuth(const Args& args);
int RunServe(const Args& args);
int RunEval(const Args& args);

}  // namespace tw::cli
