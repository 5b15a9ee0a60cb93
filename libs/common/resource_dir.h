#pragma once
// Where the shipped resource folders (skills/, strategies/) are: the environment variable if
// set, else the first `<dir>/<name>` holding `marker`, walking up from the working directory and
// then from the running executable (a build-tree binary finds the checkout's folders from any
// working directory). Falls back to the relative `<name>`.

#include <string>

namespace tw {

std::string FindResourceDir(const char* env_var, const std::string& name, const std::string& marker);

}  // namespace tw
