#include "libs/trace/query/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace tw {

std::optional<std::string> DemangleSymbol(std::string_view name) {
  // Itanium mangled names start with "_Z" (with one to three more underscores on some
  // platforms, e.g. Apple's block invocations "___Z...").
  const size_t underscores = name.find_first_not_of('_');
  if (underscores == std::string_view::npos || underscores < 1 || underscores > 4 ||
      name[underscores] != 'Z') {
    return std::nullopt;
  }
  const std::string mangled(name);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !demangled) return std::nullopt;
  return std::string(demangled.get());
}

}  // namespace tw
