#pragma once
// Decodes the Android framework's process lifecycle TrackEvent extensions (frameworks/base
// AndroidProcessStartEvent, field 2010, and AndroidBinderDiedEvent, field 2013) into
// AndroidProcessLifecycleData events at the track event's time. Enum values are named from the
// trace's extension descriptors (".com.android.internal.TriggerType" / "HostingTypeId"), else
// written as their number.

#include <cstdint>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

// Whether `field_id` is a TrackEvent field this decoder handles.
bool IsAndroidFrameworkTrackEventExtension(uint32_t field_id);

// Pushes the event of one extension field of a TrackEvent resolved to time `ts`.
void DecodeAndroidFrameworkTrackEventExtension(ImportContext* ctx, const PacketContext& packet,
                                               int64_t ts, const proto::Field& field);

}  // namespace tw
