#pragma once
// Demangling of C++ symbol names (the Itanium ABI's "_Z..." names that profilers record for
// native frames), for SQL's DEMANGLE() and the callstack modules: "_ZN3foo3barEv" reads
// "foo::bar()". Only mangled function names are demangled — a plain name ("main") or a bare type
// code ("i", which the ABI demangler would turn into "int") is not, as trace_processor's
// demangler leaves it.

#include <optional>
#include <string>
#include <string_view>

namespace tw {

// The demangled name, or nullopt when `name` is not a mangled name this build understands.
std::optional<std::string> DemangleSymbol(std::string_view name);

}  // namespace tw
