#pragma once
// The forms a Java class name takes in ART heap graphs: a class ("com.Foo"), an array of it
// ("com.Foo[][]"), and the java.lang.Class object describing either ("java.lang.Class<com.Foo>").
// Deobfuscation and superclass resolution work on the bare class name and put the decorations
// back afterwards.

#include <cstddef>
#include <string>
#include <string_view>

namespace tw {

struct JavaTypeName {
  std::string_view base;        // the class name without "java.lang.Class<...>" or "[]"s
  bool is_class_object = false; // it was "java.lang.Class<...>" (a static class object)
  size_t array_dimensions = 0;  // how many "[]" followed the class name
};

// Splits `name` into its bare class name and decorations; `base` points into `name`.
JavaTypeName ParseJavaTypeName(std::string_view name);

// `base` with the decorations of `shape` put back (e.g. "java.lang.Class<Foo[]>").
std::string DecorateJavaTypeName(const JavaTypeName& shape, std::string_view base);

}  // namespace tw
