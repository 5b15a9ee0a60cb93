#include "libs/rpc/value_convert.h"

namespace tw::rpc {

void ToProto(const SqlValue& value, tracewise::v1::Value* out) {
  switch (value.type) {
    case SqlValue::Type::kInt: out->set_int_value(value.int_value); break;
    case SqlValue::Type::kDouble: out->set_double_value(value.double_value); break;
    case SqlValue::Type::kString: out->set_string_value(value.string_value); break;
    case SqlValue::Type::kNull: out->clear_kind(); break;
  }
}

SqlValue FromProto(const tracewise::v1::Value& value) {
  switch (value.kind_case()) {
    case tracewise::v1::Value::kIntValue: return SqlValue::Int(value.int_value());
    case tracewise::v1::Value::kDoubleValue: return SqlValue::Double(value.double_value());
    case tracewise::v1::Value::kStringValue: return SqlValue::String(value.string_value());
    case tracewise::v1::Value::kBoolValue: return SqlValue::Int(value.bool_value() ? 1 : 0);
    case tracewise::v1::Value::KIND_NOT_SET: break;
  }
  return SqlValue::Null();
}

void ToProto(const std::vector<SqlValue>& row, tracewise::v1::Row* out) {
  out->mutable_values()->Reserve(static_cast<int>(row.size()));
  for (const SqlValue& v : row) ToProto(v, out->add_values());
}

std::vector<SqlValue> FromProto(const tracewise::v1::Row& row) {
  std::vector<SqlValue> out;
  out.reserve(static_cast<size_t>(row.values_size()));
  for (const auto& v : row.values()) out.push_back(FromProto(v));
  return out;
}

void ToProto(const std::vector<std::pair<std::string, SqlValue>>& params,
             google::protobuf::RepeatedPtrField<tracewise::v1::Parameter>* out) {
  for (const auto& [name, value] : params) {
    auto* p = out->Add();
    p->set_name(name);
    ToProto(value, p->mutable_value());
  }
}

std::vector<std::pair<std::string, SqlValue>> FromProto(
    const google::protobuf::RepeatedPtrField<tracewise::v1::Parameter>& params) {
  std::vector<std::pair<std::string, SqlValue>> out;
  for (const auto& p : params) out.emplace_back(p.name(), FromProto(p.value()));
  return out;
}

}  // namespace tw::rpc
