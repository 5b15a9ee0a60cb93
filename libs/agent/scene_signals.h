#pragma once
// Reads every scene's signal (strategy.h: SceneSignal) on a trace: does the trace hold the
// scene's data, does that data show a problem, and the scene's key numbers in one sentence.
// Signals are cheap skills run once per diagnosis after the context probes; a general question
// then looks where the problems are, and a specific one can say that its scene is clean while
// another is not.

#include <string>
#include <vector>

#include "libs/agent/procedure_run.h"
#include "libs/strategy/strategy_library.h"

namespace tw::agent {

struct SceneSignalReading {
  std::string scene;
  std::string title;
  bool evaluated = false;  // the signal skill ran and returned a row
  bool has_data = false;
  bool problem = false;
  std::string summary;      // the scene's key numbers (empty without data)
  std::string artifact_id;  // the signal's result, cited by the answer
  std::string message;      // why there is no reading (skill not supported, failed, ...)
  int priority = 0;         // the strategy's priority: the order problems are looked at
};

// Runs the signals of every strategy that declares one, in priority order.
std::vector<SceneSignalReading> ReadSceneSignals(const strategy::StrategyLibrary& strategies,
                                                 ProcedureRunner& runner);

}  // namespace tw::agent
