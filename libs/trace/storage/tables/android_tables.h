#pragma once
// Android-specific tables: packages, users, input events, framework process lifecycle.

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// clang-format off
#define TW_PACKAGE_LIST_TABLE(TABLE, COLUMN)                                                     \
  TABLE(PackageListTable, package_list,                                                          \
        "Android packages installed on the device (packages_list data source), one row per "     \
        "package.")                                                                              \
  COLUMN(package_name, String, kNone, {}, "The package's name (com.example.app).")               \
  COLUMN(uid, Int64, kNone, {}, "The app's Linux uid; its processes run as it.")                 \
  COLUMN(debuggable, Int32, kNone, {}, "1 when the app is debuggable.")                          \
  COLUMN(profileable_from_shell, Int32, kNone, {}, "1 when the app is profileable from shell.")  \
  COLUMN(version_code, Int64, kNone, {}, "The installed version code.")
// clang-format on
TW_DEFINE_TABLE(TW_PACKAGE_LIST_TABLE)

// clang-format off
#define TW_ANDROID_MOTION_EVENTS_TABLE(TABLE, COLUMN)                                            \
  TABLE(AndroidMotionEventsTable, android_motion_events,                                         \
        "Motion (touch, mouse, ...) events InputDispatcher processed (android.input.inputevent " \
        "data source), one row per event.")                                                      \
  COLUMN(event_id, Int64, kNone, {}, "The input event's id, shared with its dispatch rows.")     \
  COLUMN(ts, Int64, kNone, {}, "When the event happened (trace clock, ns).")                     \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The whole event proto, as args.")                    \
  COLUMN(base64_proto_id, OptUint32, kNone, {},                                                 \
         "The event proto in base64, as a string-pool id (trace_processor's raw form).")    \
  COLUMN(source, Int64, kNone, {}, "The input source (AINPUT_SOURCE_* bits).")                   \
  COLUMN(action, Int64, kNone, {}, "The motion action (AMOTION_EVENT_ACTION_*).")                \
  COLUMN(device_id, Int64, kNone, {}, "The input device.")                                       \
  COLUMN(display_id, Int64, kNone, {}, "The display the event is for.")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_MOTION_EVENTS_TABLE)

// clang-format off
#define TW_ANDROID_KEY_EVENTS_TABLE(TABLE, COLUMN)                                               \
  TABLE(AndroidKeyEventsTable, android_key_events,                                               \
        "Key events InputDispatcher processed (android.input.inputevent data source), one row "  \
        "per event.")                                                                            \
  COLUMN(event_id, Int64, kNone, {}, "The input event's id, shared with its dispatch rows.")     \
  COLUMN(ts, Int64, kNone, {}, "When the event happened (trace clock, ns).")                     \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The whole event proto, as args.")                    \
  COLUMN(base64_proto_id, OptUint32, kNone, {},                                                 \
         "The event proto in base64, as a string-pool id (trace_processor's raw form).")    \
  COLUMN(source, Int64, kNone, {}, "The input source (AINPUT_SOURCE_* bits).")                   \
  COLUMN(action, Int64, kNone, {}, "The key action (AKEY_EVENT_ACTION_*).")                      \
  COLUMN(device_id, Int64, kNone, {}, "The input device.")                                       \
  COLUMN(display_id, Int64, kNone, {}, "The display the event is for.")                          \
  COLUMN(key_code, Int64, kNone, {}, "The key (AKEYCODE_*).")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_KEY_EVENTS_TABLE)

// clang-format off
#define TW_ANDROID_INPUT_EVENT_DISPATCH_TABLE(TABLE, COLUMN)                                     \
  TABLE(AndroidInputEventDispatchTable, android_input_event_dispatch,                            \
        "One row per input event dispatched to a window (android.input.inputevent).")            \
  COLUMN(event_id, Int64, kNone, {},                                                             \
         "The dispatched event (android_motion_events / android_key_events.event_id).")          \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The whole dispatch proto, as args.")                 \
  COLUMN(vsync_id, Int64, kNone, {}, "The vsync the window drew the event's effect in, if any.") \
  COLUMN(window_id, Int64, kNone, {}, "The window that received the event.")                                                                                                 \
  COLUMN(base64_proto_id, OptUint32, kNone, {},                                                 \
         "The dispatch proto in base64, as a string-pool id (trace_processor's raw form).")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_INPUT_EVENT_DISPATCH_TABLE)

// clang-format off
#define TW_ANDROID_USER_LIST_TABLE(TABLE, COLUMN)                                                \
  TABLE(AndroidUserListTable, android_user_list,                                                 \
        "The Android users (profiles, not Linux uids) the user_list data source saw.")           \
  COLUMN(android_user_id, Int64, kNone, {}, "The user id (0 is the system user).")               \
  COLUMN(type, String, kNone, {}, "The user's type (android.os.usertype.full.SYSTEM, ...).")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_USER_LIST_TABLE)

// clang-format off
#define TW_ANDROID_AFLAGS_TABLE(TABLE, COLUMN)                                                   \
  TABLE(AndroidAflagsTable, android_aflags,                                                      \
        "Snapshots of Android's aconfig flags (android.aflags data source): one row per flag "   \
        "per snapshot.")                                                                         \
  COLUMN(ts, Int64, kNone, {}, "When the snapshot was taken (trace clock, ns).")                 \
  COLUMN(package, String, kNone, {}, "The flag's package (com.android.window.flags).")           \
  COLUMN(name, String, kNone, {}, "The flag's name within its package.")                         \
  COLUMN(flag_namespace, String, kNone, {}, "The namespace the flag belongs to.")                \
  COLUMN(container, String, kNone, {}, "The container (system, product, ...).")                  \
  COLUMN(value, String, kNone, {}, "The flag's value at the snapshot.")                          \
  COLUMN(staged_value, String, kNone, {}, "The value it takes after the next reboot, if staged.") \
  COLUMN(permission, String, kNone, {}, "read-only, read-write or unspecified.")                 \
  COLUMN(value_picked_from, String, kNone, {}, "Where the value came from: default, server, "    \
         "local or unspecified.")                                                                \
  COLUMN(storage_backend, String, kNone, {}, "none, aconfigd, device_config or unspecified.")    \
  COLUMN(type, String, kNone, {}, "boolean, integer or unspecified.")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_AFLAGS_TABLE)

#define TW_ANDROID_CPU_PER_UID_TRACK_TABLE(TABLE, COLUMN)                                        \
  TABLE(AndroidCpuPerUidTrackTable, android_cpu_per_uid_track,                                   \
        "One row per (uid, cpu cluster) of the cpu_per_uid data source: its counter track and "  \
        "the cpu time it accrued during the trace (uids of the shared and isolated ranges "      \
        "grouped per range).")                                                                   \
  COLUMN(track_id, Uint32, kSorted, {}, "The android_cpu_per_uid counter track (track.id).")     \
  COLUMN(uid, Int64, kNone, {}, "The uid (or the first uid of its group).")                      \
  COLUMN(cluster, Int64, kNone, {}, "The cpu cluster, from 0 (usually the smallest cores).")     \
  COLUMN(total_cpu_millis, Int64, kNone, {}, "Cpu time accrued during the trace, in ms.")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_CPU_PER_UID_TRACK_TABLE)

// clang-format off
#define TW_ANDROID_NETWORK_PACKETS_TABLE(TABLE, COLUMN)                                          \
  TABLE(AndroidNetworkPacketsTable, android_network_packets,                                     \
        "One row per network packet event of the android.network_packets data source (a "       \
        "packet, or an aggregate of packets with the same context): its slice and what the "    \
        "event says about the traffic.")                                                         \
  COLUMN(slice_id, Uint32, kSorted, {}, "The event's slice (slice.id).")                         \
  COLUMN(iface, String, kNone, {}, "The Linux network interface.")                               \
  COLUMN(direction, String, kNone, {}, "'Transmitted', 'Received' or 'DIR_UNKNOWN'.")           \
  COLUMN(packet_transport, String, kNone, {},                                                    \
         "The transport protocol (IPPROTO_TCP, IPPROTO_UDP, ...).")                              \
  COLUMN(packet_length, Int64, kNone, {}, "The packets' total length on the wire, in bytes.")   \
  COLUMN(packet_count, Int64, kNone, {}, "How many packets the event stands for.")              \
  COLUMN(socket_tag, Int64, kNone, {}, "The socket's Android traffic tag.")                     \
  COLUMN(socket_tag_str, String, kNone, {}, "The traffic tag in hex (\"0x1f\").")              \
  COLUMN(socket_uid, Int64, kNone, {}, "The Linux uid owning the socket.")                      \
  COLUMN(local_port, OptInt64, kNone, {}, "The local port (TCP and UDP only).")                 \
  COLUMN(remote_port, OptInt64, kNone, {}, "The remote port (TCP and UDP only).")               \
  COLUMN(packet_icmp_type, OptInt64, kNone, {}, "The ICMP type (ICMP only).")                   \
  COLUMN(packet_icmp_code, OptInt64, kNone, {}, "The ICMP code (ICMP only).")                   \
  COLUMN(packet_tcp_flags, OptInt64, kNone, {}, "The TCP flags bitmask (TCP only).")            \
  COLUMN(packet_tcp_flags_str, String, kNone, {},                                                \
         "The TCP flags as letters (fsrpauec, '.' for a clear bit); NULL for other traffic.")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_NETWORK_PACKETS_TABLE)

// clang-format off
#define TW_LINUX_INTERRUPT_MAPPING_TABLE(TABLE, COLUMN)                                          \
  TABLE(LinuxInterruptMappingTable, linux_interrupt_mapping,                                     \
        "The IRQs the kernel listed in /proc/interrupts (the interrupt_info packet), one row "   \
        "per IRQ number and machine: what each number is called.")                              \
  COLUMN(irq_id, Int64, kNone, {}, "The IRQ number.")                                            \
  COLUMN(name, String, kNone, {}, "The IRQ's name (\"arch_timer\", \"arm-pmu\", ...).")            \
  COLUMN(machine_id, Uint32, kNone, {}, "The machine whose kernel listed it (machine.id).")
// clang-format on
TW_DEFINE_TABLE(TW_LINUX_INTERRUPT_MAPPING_TABLE)

// clang-format off
#define TW_ANDROID_DUMPSTATE_TABLE(TABLE, COLUMN)                                                \
  TABLE(AndroidDumpstateTable, android_dumpstate,                                                \
        "The lines of an Android dumpstate text (a bugreport's main file), one row per line, "   \
        "with the dumpstate section and dumpsys service it belongs to.")                         \
  COLUMN(section, String, kNone, {},                                                             \
         "The dumpstate section (\"DUMPSYS\", \"SYSTEM LOG\", ...); NULL outside any.")           \
  COLUMN(service, String, kNone, {},                                                             \
         "Inside a DUMPSYS section: the service being dumped (\"activity\", ...); else NULL.")   \
  COLUMN(line, String, kNone, {}, "The line's text.")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_DUMPSTATE_TABLE)

// clang-format off
#define TW_ANDROID_TRACK_EVENT_PROCESS_TABLE(TABLE, COLUMN)                                      \
  TABLE(AndroidTrackEventProcessTable, android_track_event_process,                              \
        "Per-process lifecycle facts from the Android framework's track events (process start, " \
        "binder death).")                                                                        \
  COLUMN(upid, Uint32, kNone, {}, "The process (process.id).")                                   \
  COLUMN(start_seq_id, OptInt64, kNone, {}, "The framework's process start sequence number.")    \
  COLUMN(package_uid, OptInt64, kNone, {}, "The uid of the package the process hosts.")          \
  COLUMN(caller_uid, OptInt64, kNone, {}, "The uid of the caller that caused the start.")        \
  COLUMN(defining_uid, OptInt64, kNone, {}, "The uid that defined the started component.")       \
  COLUMN(fw_start_ts, OptInt64, kNone, {}, "When the framework began starting the process.")     \
  COLUMN(fw_end_ts, OptInt64, kNone, {}, "When the framework saw the process end.")              \
  COLUMN(trigger_type, String, kNone, {}, "What started it (activity, service, broadcast, ...).") \
  COLUMN(hosting_type, String, kNone, {}, "The kind of component hosted.")                       \
  COLUMN(hosting_name, String, kNone, {}, "The hosted component's name.")                        \
  COLUMN(bind_application_delay_ms, OptInt64, kNone, {},                                         \
         "Time from process start to bindApplication, in ms.")                                   \
  COLUMN(process_start_delay_ms, OptInt64, kNone, {},                                            \
         "Time the framework waited for the process to start, in ms.")
// clang-format on
TW_DEFINE_TABLE(TW_ANDROID_TRACK_EVENT_PROCESS_TABLE)

}  // namespace tw
