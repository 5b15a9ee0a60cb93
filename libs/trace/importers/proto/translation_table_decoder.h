#pragma once
// TranslationTable packets (TracePacket field 82) into the trace's TranslationTables: Chrome
// histogram / user event / study name hashes, performance-mark site and mark hashes, raw slice
// and process-track names. Later entries for a key replace earlier ones.

#include "libs/trace/events/translation_tables.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

// Returns false if the packet is malformed (what was read before the damage is kept).
bool DecodeTranslationTable(ImportContext* ctx, const proto::Field& table,
                            TranslationTables* out);

}  // namespace tw
