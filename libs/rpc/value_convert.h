#pragma once
// Our SQL values and results <-> tracewise.v1 messages.

#include <string>
#include <utility>
#include <vector>

#include "libs/trace/query/sql_value.h"
#include "tracewise/v1/common.pb.h"

namespace tw::rpc {

void ToProto(const SqlValue& value, tracewise::v1::Value* out);
SqlValue FromProto(const tracewise::v1::Value& value);

void ToProto(const std::vector<SqlValue>& row, tracewise::v1::Row* out);
std::vector<SqlValue> FromProto(const tracewise::v1::Row& row);

void ToProto(const std::vector<std::pair<std::string, SqlValue>>& params,
             google::protobuf::RepeatedPtrField<tracewise::v1::Parameter>* out);
std::vector<std::pair<std::string, SqlValue>> FromProto(
    const google::protobuf::RepeatedPtrField<tracewise::v1::Parameter>& params);

}  // namespace tw::rpc
