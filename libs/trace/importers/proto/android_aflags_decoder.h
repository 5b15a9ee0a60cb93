#pragma once
// android_aflags packets (the android.aflags data source polling the device's aconfig flags)
// become rows of android_aflags, one per flag per snapshot, with the proto's enums as
// trace_processor's strings. A snapshot the producer could not take carries an error: it is
// counted in android_aflags_errors with a trace_import_logs row holding the text (arg "error").

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class AndroidAflagsDecoder {
 public:
  explicit AndroidAflagsDecoder(ImportContext* ctx) : ctx_(ctx) {}

  // Where the error's args are stored; without one the log row has no args.
  void set_arg_set_sink(ArgSetSink sink) { add_arg_set_ = std::move(sink); }

  void Decode(const PacketContext& packet, const proto::Field& field);

 private:
  ImportContext* ctx_;
  ArgSetSink add_arg_set_;
};

}  // namespace tw
