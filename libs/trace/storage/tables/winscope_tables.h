#pragma once
// Tables of the winscope traces (Android's window-system tracing: SurfaceFlinger transactions,
// shell transitions, input method dumps, ViewCapture, window manager), with trace_processor's
// names. Each dump keeps its raw proto (base64, an interned string id) beside the args parsed
// from it.

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// The three input method dumps share their columns.
#define TW_WINSCOPE_DUMP_COLUMNS_(COLUMN)                                                       \
  COLUMN(ts, Int64, kNone, {}, "When the dump was taken (trace clock, ns).")                    \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The dump's fields, as args.")                       \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw dump proto (base64), a string id.")

// clang-format off
#define TW_INPUTMETHOD_CLIENTS_TABLE(TABLE, COLUMN)                                              \
  TABLE(InputMethodClientsTable, inputmethod_clients,                                            \
        "Dumps of the input method clients (the apps' InputMethodManager side).")                \
  TW_WINSCOPE_DUMP_COLUMNS_(COLUMN)
// clang-format on
TW_DEFINE_TABLE(TW_INPUTMETHOD_CLIENTS_TABLE)

// clang-format off
#define TW_INPUTMETHOD_MANAGER_SERVICE_TABLE(TABLE, COLUMN)                                      \
  TABLE(InputMethodManagerServiceTable, inputmethod_manager_service,                             \
        "Dumps of the system's InputMethodManagerService.")                                      \
  TW_WINSCOPE_DUMP_COLUMNS_(COLUMN)
// clang-format on
TW_DEFINE_TABLE(TW_INPUTMETHOD_MANAGER_SERVICE_TABLE)

// clang-format off
#define TW_INPUTMETHOD_SERVICE_TABLE(TABLE, COLUMN)                                              \
  TABLE(InputMethodServiceTable, inputmethod_service,                                            \
        "Dumps of the input method service (the keyboard app's InputMethodService).")            \
  TW_WINSCOPE_DUMP_COLUMNS_(COLUMN)
// clang-format on
TW_DEFINE_TABLE(TW_INPUTMETHOD_SERVICE_TABLE)

// clang-format off
#define TW_SURFACEFLINGER_TRANSACTIONS_TABLE(TABLE, COLUMN)                                      \
  TABLE(SurfaceFlingerTransactionsTable, surfaceflinger_transactions,                            \
        "SurfaceFlinger transaction entries: what SurfaceFlinger committed together at one "     \
        "vsync.")                                                                                \
  COLUMN(ts, Int64, kNone, {}, "When the entry was committed (trace clock, ns).")                \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The entry's fields, as args.")                       \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw entry proto (base64), a string id.")    \
  COLUMN(vsync_id, OptInt64, kNone, {}, "The vsync the entry was committed at.")
// clang-format on
TW_DEFINE_TABLE(TW_SURFACEFLINGER_TRANSACTIONS_TABLE)

// clang-format off
#define TW_SURFACEFLINGER_TRANSACTION_TABLE(TABLE, COLUMN)                                       \
  TABLE(SurfaceFlingerTransactionTable, surfaceflinger_transaction,                              \
        "One change of a transaction entry: a layer or display added, changed or removed, a "    \
        "layer handle destroyed, or a transaction that changed nothing (NOOP).")                 \
  COLUMN(snapshot_id, Uint32, kNone, {},                                                         \
         "The entry it was committed with (surfaceflinger_transactions.id).")                    \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The change's fields, as args.")                      \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw change proto (base64), a string id.")   \
  COLUMN(transaction_id, OptInt64, kNone, {}, "The transaction the change belongs to.")          \
  COLUMN(pid, OptUint32, kNone, {}, "The process that sent the transaction.")                    \
  COLUMN(uid, OptUint32, kNone, {}, "The uid that sent the transaction.")                        \
  COLUMN(layer_id, OptUint32, kNone, {}, "The layer changed, for layer changes.")                \
  COLUMN(display_id, OptUint32, kNone, {}, "The display changed, for display changes.")          \
  COLUMN(flags_id, OptUint32, kNone, {},                                                         \
         "The change flags (surfaceflinger_transaction_flag.flags_id), if any.")                 \
  COLUMN(transaction_type, String, kNone, {},                                                    \
         "LAYER_CHANGED, LAYER_ADDED, DISPLAY_CHANGED, ... or NOOP.")
// clang-format on
TW_DEFINE_TABLE(TW_SURFACEFLINGER_TRANSACTION_TABLE)

// clang-format off
#define TW_SURFACEFLINGER_TRANSACTION_FLAG_TABLE(TABLE, COLUMN)                                  \
  TABLE(SurfaceFlingerTransactionFlagTable, surfaceflinger_transaction_flag,                     \
        "The change flags of the changes sharing one `what` bitset: one row per flag set.")      \
  COLUMN(flags_id, OptUint32, kNone, {}, "The bitset's id (surfaceflinger_transaction.flags_id).") \
  COLUMN(flag, String, kNone, {}, "The flag's name (eLayerChanged, ePositionChanged, ...).")
// clang-format on
TW_DEFINE_TABLE(TW_SURFACEFLINGER_TRANSACTION_FLAG_TABLE)

// clang-format off
#define TW_WINSCOPE_RECT_TABLE(TABLE, COLUMN)                                                    \
  TABLE(WinscopeRectTable, winscope_rect,                                                        \
        "Rectangles of winscope geometry (bounds of layers, windows, transition participants), " \
        "each stored once.")                                                                     \
  COLUMN(x, Double, kNone, {}, "Left edge, in pixels.")                                          \
  COLUMN(y, Double, kNone, {}, "Top edge, in pixels.")                                           \
  COLUMN(w, Double, kNone, {}, "Width, in pixels.")                                              \
  COLUMN(h, Double, kNone, {}, "Height, in pixels.")
// clang-format on
TW_DEFINE_TABLE(TW_WINSCOPE_RECT_TABLE)

// clang-format off
#define TW_WINSCOPE_TRACE_RECT_TABLE(TABLE, COLUMN)                                              \
  TABLE(WinscopeTraceRectTable, winscope_trace_rect,                                             \
        "A rectangle as one winscope entry draws it (a view of a ViewCapture snapshot, ...): "   \
        "its geometry and how it is drawn.")                                                     \
  COLUMN(rect_id, Uint32, kNone, {}, "The geometry (winscope_rect.id).")                         \
  COLUMN(group_id, Uint32, kNone, {}, "The group the rect is drawn in (a display, ...).")        \
  COLUMN(depth, Uint32, kNone, {},                                                               \
         "Its z position (ViewCapture: tree depth x 4, to separate the levels).")                \
  COLUMN(is_spy, Int64, kNone, {}, "1 for an input spy window's rect.")                          \
  COLUMN(is_visible, Int64, kNone, {}, "1 when what it stands for is visible.")                  \
  COLUMN(opacity, OptDouble, kNone, {}, "Its opacity (0..1), if known.")                         \
  COLUMN(transform_id, OptUint32, kNone, {}, "Its transform, if it has one.")                   \
  COLUMN(border_width, OptDouble, kNone, {}, "Border width, if drawn with one.")                 \
  COLUMN(border_color, OptUint32, kNone, {}, "Border color, if drawn with one.")
// clang-format on
TW_DEFINE_TABLE(TW_WINSCOPE_TRACE_RECT_TABLE)

// clang-format off
#define TW_WINSCOPE_TRANSFORM_TABLE(TABLE, COLUMN)                                               \
  TABLE(WinscopeTransformTable, winscope_transform,                                              \
        "Affine transforms winscope rects are drawn with (x' = dsdx*x + dtdx*y + tx, "            \
        "y' = dtdy*x + dsdy*y + ty), each stored once.")                                         \
  COLUMN(dsdx, Double, kNone, {}, "x scale (and rotation) term.")                                \
  COLUMN(dtdx, Double, kNone, {}, "x shear (and rotation) term.")                                \
  COLUMN(tx, Double, kNone, {}, "x translation, in pixels.")                                     \
  COLUMN(dtdy, Double, kNone, {}, "y shear (and rotation) term.")                                \
  COLUMN(dsdy, Double, kNone, {}, "y scale (and rotation) term.")                                \
  COLUMN(ty, Double, kNone, {}, "y translation, in pixels.")
// clang-format on
TW_DEFINE_TABLE(TW_WINSCOPE_TRANSFORM_TABLE)

// clang-format off
#define TW_WINSCOPE_FILL_REGION_TABLE(TABLE, COLUMN)                                             \
  TABLE(WinscopeFillRegionTable, winscope_fill_region,                                           \
        "The rects an input window's trace rect is filled with: its touchable region (one "      \
        "empty rect when it takes no touches).")                                                 \
  COLUMN(trace_rect_id, Uint32, kNone, {}, "The input window's rect (winscope_trace_rect.id).")  \
  COLUMN(rect_id, Uint32, kNone, {}, "One rect of the region (winscope_rect.id).")
// clang-format on
TW_DEFINE_TABLE(TW_WINSCOPE_FILL_REGION_TABLE)

// clang-format off
#define TW_SURFACEFLINGER_LAYERS_SNAPSHOT_TABLE(TABLE, COLUMN)                                   \
  TABLE(SurfaceFlingerLayersSnapshotTable, surfaceflinger_layers_snapshot,                       \
        "SurfaceFlinger layer snapshots: the whole layer hierarchy and the displays at a time.") \
  COLUMN(ts, Int64, kNone, {}, "When the snapshot was taken (trace clock, ns).")                 \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The snapshot's own fields (not its layers), as args.") \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw snapshot proto (base64), a string id.") \
  COLUMN(sequence_id, Uint32, kNone, {}, "The packet sequence that wrote it.")                   \
  COLUMN(has_invalid_elapsed_ts, OptUint32, kNone, {},                                           \
         "1 when the snapshot's own elapsed-realtime stamp was missing.")
// clang-format on
TW_DEFINE_TABLE(TW_SURFACEFLINGER_LAYERS_SNAPSHOT_TABLE)

// clang-format off
#define TW_SURFACEFLINGER_DISPLAY_TABLE(TABLE, COLUMN)                                           \
  TABLE(SurfaceFlingerDisplayTable, surfaceflinger_display,                                      \
        "The displays of a SurfaceFlinger layer snapshot.")                                      \
  COLUMN(snapshot_id, Uint32, kNone, {}, "The snapshot (surfaceflinger_layers_snapshot.id).")    \
  COLUMN(is_on, Int64, kNone, {}, "1 unless the display's layer stack is the invalid one.")      \
  COLUMN(is_virtual, Int64, kNone, {}, "1 for a virtual display.")                               \
  COLUMN(trace_rect_id, Uint32, kNone, {},                                                       \
         "Its layer-stack rect (winscope_trace_rect.id; group = layer stack, depth = index).")   \
  COLUMN(display_id, Int64, kNone, {}, "The display's id.")                                      \
  COLUMN(display_name, String, kNone, {}, "The display's name.")
// clang-format on
TW_DEFINE_TABLE(TW_SURFACEFLINGER_DISPLAY_TABLE)

// clang-format off
#define TW_SURFACEFLINGER_LAYER_TABLE(TABLE, COLUMN)                                             \
  TABLE(SurfaceFlingerLayerTable, surfaceflinger_layer,                                          \
        "The layers of a SurfaceFlinger layer snapshot, with the visibility winscope computes "  \
        "(the reasons a layer is hidden and the layers occluding it are in its args).")          \
  COLUMN(snapshot_id, Uint32, kNone, {}, "The snapshot (surfaceflinger_layers_snapshot.id).")    \
  COLUMN(arg_set_id, OptUint32, kNone, {},                                                       \
         "The layer's fields, plus visibility_reason[], occluded_by[], "                         \
         "partially_occluded_by[] and covered_by[].")                                            \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw layer proto (base64), a string id.")    \
  COLUMN(layer_id, OptInt64, kNone, {}, "The layer's id.")                                       \
  COLUMN(layer_name, String, kNone, {}, "The layer's name.")                                     \
  COLUMN(is_visible, Int64, kNone, {}, "1 when winscope computes the layer as visible.")         \
  COLUMN(parent, OptInt64, kNone, {}, "The parent layer's id.")                                  \
  COLUMN(corner_radius_tl, OptDouble, kNone, {}, "Top-left corner radius, in pixels.")           \
  COLUMN(corner_radius_tr, OptDouble, kNone, {}, "Top-right corner radius, in pixels.")          \
  COLUMN(corner_radius_bl, OptDouble, kNone, {}, "Bottom-left corner radius, in pixels.")        \
  COLUMN(corner_radius_br, OptDouble, kNone, {}, "Bottom-right corner radius, in pixels.")       \
  COLUMN(hwc_composition_type, OptInt64, kNone, {}, "How the hardware composer composed it.")    \
  COLUMN(is_hidden_by_policy, Int64, kNone, {},                                                  \
         "1 when hidden by its own flag (or it is the offscreen root).")                         \
  COLUMN(z_order_relative_of, OptInt64, kNone, {}, "The layer it is z-ordered relative to.")     \
  COLUMN(is_missing_z_parent, Int64, kNone, {},                                                  \
         "1 when that relative-z layer is not in the snapshot.")                                 \
  COLUMN(layer_rect_id, OptUint32, kNone, {}, "Its bounds as drawn (winscope_trace_rect.id).")   \
  COLUMN(input_rect_id, OptUint32, kNone, {},                                                    \
         "Its input window's frame as drawn (winscope_trace_rect.id).")
// clang-format on
TW_DEFINE_TABLE(TW_SURFACEFLINGER_LAYER_TABLE)

// clang-format off
#define TW_SHELL_TRANSITIONS_TABLE(TABLE, COLUMN)                                                \
  TABLE(ShellTransitionsTable, window_manager_shell_transitions,                                 \
        "Shell transitions (WM Shell's window transitions), one row per transition id, filled "  \
        "in as its packets arrive; status and duration are settled at the end of the trace.")    \
  COLUMN(ts, Int64, kNone, {}, "When the transition began (trace clock, ns).")                   \
  COLUMN(transition_id, Int64, kNone, {}, "The transition's id.")                                \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The transition's fields from all its packets.")      \
  COLUMN(transition_type, OptUint32, kNone, {}, "The transition type (TRANSIT_*).")              \
  COLUMN(send_time_ns, OptInt64, kNone, {}, "When it was sent to the shell.")                    \
  COLUMN(dispatch_time_ns, OptInt64, kNone, {}, "When the shell dispatched it to a handler.")    \
  COLUMN(duration_ns, OptInt64, kNone, {}, "From send (or dispatch) to finish, when known.")     \
  COLUMN(finish_time_ns, OptInt64, kNone, {}, "When it finished.")                               \
  COLUMN(shell_abort_time_ns, OptInt64, kNone, {}, "When the shell aborted it.")                 \
  COLUMN(wm_abort_time_ns, OptInt64, kNone, {}, "When window manager aborted it.")               \
  COLUMN(merge_time_ns, OptInt64, kNone, {}, "When it was merged into another.")                 \
  COLUMN(create_time_ns, OptInt64, kNone, {}, "When it was created.")                            \
  COLUMN(handler, OptInt64, kNone, {}, "The handler that played it (handler_id).")               \
  COLUMN(status, String, kNone, {}, "played, merged, aborted or unknown.")                       \
  COLUMN(flags, OptUint32, kNone, {}, "The transition's flags.")                                 \
  COLUMN(start_transaction_id, OptInt64, kNone, {}, "Its start transaction's id.")               \
  COLUMN(finish_transaction_id, OptInt64, kNone, {}, "Its finish transaction's id.")
// clang-format on
TW_DEFINE_TABLE(TW_SHELL_TRANSITIONS_TABLE)

// clang-format off
#define TW_SHELL_TRANSITION_PARTICIPANTS_TABLE(TABLE, COLUMN)                                    \
  TABLE(ShellTransitionParticipantsTable, window_manager_shell_transition_participants,          \
        "The windows and layers each shell transition changed.")                                 \
  COLUMN(transition_id, Int64, kNone, {}, "The transition.")                                     \
  COLUMN(layer_id, OptUint32, kNone, {}, "The layer, for layer participants.")                   \
  COLUMN(window_id, OptUint32, kNone, {}, "The window, for window participants.")                \
  COLUMN(mode, OptUint32, kNone, {}, "The change mode (open, close, to front, ...).")            \
  COLUMN(flags, OptUint32, kNone, {}, "The change flags.")                                       \
  COLUMN(start_display_id, OptUint32, kNone, {}, "The display before.")                          \
  COLUMN(end_display_id, OptUint32, kNone, {}, "The display after.")                             \
  COLUMN(start_rotation, OptUint32, kNone, {}, "The rotation before.")                           \
  COLUMN(end_rotation, OptUint32, kNone, {}, "The rotation after.")                              \
  COLUMN(start_abs_bounds_rect_id, OptUint32, kNone, {}, "Bounds before (winscope_rect.id).")    \
  COLUMN(end_abs_bounds_rect_id, OptUint32, kNone, {}, "Bounds after (winscope_rect.id).")
// clang-format on
TW_DEFINE_TABLE(TW_SHELL_TRANSITION_PARTICIPANTS_TABLE)

// clang-format off
#define TW_SHELL_TRANSITION_PROTOS_TABLE(TABLE, COLUMN)                                          \
  TABLE(ShellTransitionProtosTable, window_manager_shell_transition_protos,                      \
        "The raw proto of each packet of a shell transition (transitions arrive in parts).")     \
  COLUMN(transition_id, Int64, kNone, {}, "The transition.")                                     \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw packet proto (base64), a string id.")
// clang-format on
TW_DEFINE_TABLE(TW_SHELL_TRANSITION_PROTOS_TABLE)

// clang-format off
#define TW_SHELL_TRANSITION_HANDLERS_TABLE(TABLE, COLUMN)                                        \
  TABLE(ShellTransitionHandlersTable, window_manager_shell_transition_handlers,                  \
        "The shell transition handlers' names by id.")                                           \
  COLUMN(handler_id, Int64, kNone, {}, "The handler's id.")                                      \
  COLUMN(handler_name, String, kNone, {}, "The handler's name.")                                 \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw mapping proto (base64), a string id.")
// clang-format on
TW_DEFINE_TABLE(TW_SHELL_TRANSITION_HANDLERS_TABLE)

// clang-format off
#define TW_VIEWCAPTURE_TABLE(TABLE, COLUMN)                                                      \
  TABLE(ViewCaptureTable, viewcapture,                                                           \
        "ViewCapture snapshots: one app window's view hierarchy at a time.")                     \
  COLUMN(ts, Int64, kNone, {}, "When the snapshot was taken (trace clock, ns).")                 \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The snapshot's fields, as args.")                    \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw snapshot proto (base64), a string id.") \
  COLUMN(package_name, String, kNone, {}, "The app package.")                                    \
  COLUMN(window_name, String, kNone, {}, "The window the hierarchy belongs to.")
// clang-format on
TW_DEFINE_TABLE(TW_VIEWCAPTURE_TABLE)

// clang-format off
#define TW_VIEWCAPTURE_VIEW_TABLE(TABLE, COLUMN)                                                 \
  TABLE(ViewCaptureViewTable, viewcapture_view, "The views of a ViewCapture snapshot.")          \
  COLUMN(snapshot_id, Uint32, kNone, {}, "The snapshot (viewcapture.id).")                       \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The view's fields, as args.")                        \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw view proto (base64), a string id.")     \
  COLUMN(node_id, Uint32, kNone, {}, "The view's node id within the snapshot.")                  \
  COLUMN(hashcode, Uint32, kNone, {}, "The view object's hashcode.")                             \
  COLUMN(is_visible, Int64, kNone, {},                                                           \
         "1 when the view and every ancestor are VISIBLE and it has an area.")                   \
  COLUMN(parent_id, Uint32, kNone, {}, "The parent view's node id.")                             \
  COLUMN(view_id, String, kNone, {}, "The view's resource id name.")                             \
  COLUMN(class_name, String, kNone, {}, "The view's class.")                                     \
  COLUMN(trace_rect_id, OptUint32, kNone, {}, "Its rect (winscope_trace_rect.id), if computed.")
// clang-format on
TW_DEFINE_TABLE(TW_VIEWCAPTURE_VIEW_TABLE)

// clang-format off
#define TW_VIEWCAPTURE_INTERNED_DATA_TABLE(TABLE, COLUMN)                                        \
  TABLE(ViewCaptureInternedDataTable, viewcapture_interned_data,                                 \
        "The interned strings each ViewCapture proto refers to (to rebuild it with its "         \
        "strings).")                                                                             \
  COLUMN(base64_proto_id, Uint32, kNone, {}, "The proto referring to the string.")               \
  COLUMN(flat_key, String, kNone, {}, "The field holding the interned id.")                      \
  COLUMN(iid, Int64, kNone, {}, "The interned id.")                                              \
  COLUMN(deinterned_value, String, kNone, {}, "The string it stands for.")
// clang-format on
TW_DEFINE_TABLE(TW_VIEWCAPTURE_INTERNED_DATA_TABLE)

// clang-format off
#define TW_WINDOWMANAGER_TABLE(TABLE, COLUMN)                                                    \
  TABLE(WindowManagerTable, windowmanager, "Window manager dumps.")                              \
  COLUMN(ts, Int64, kNone, {}, "When the dump was taken (trace clock, ns).")                     \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The dump's fields, as args.")                        \
  COLUMN(base64_proto_id, OptUint32, kNone, {}, "The raw dump proto (base64), a string id.")     \
  COLUMN(focused_display_id, Uint32, kNone, {}, "The focused display.")                          \
  COLUMN(has_invalid_elapsed_ts, Int64, kNone, {},                                               \
         "1 when the dump's own elapsed-realtime stamp was missing.")
// clang-format on
TW_DEFINE_TABLE(TW_WINDOWMANAGER_TABLE)

// clang-format off
#define TW_PROTOLOG_TABLE(TABLE, COLUMN)                                                         \
  TABLE(ProtoLogTable, protolog,                                                                 \
        "ProtoLog messages (the binary logs of WindowManager and Shell), formatted with the "    \
        "viewer config's format strings.")                                                       \
  COLUMN(ts, Int64, kSorted, {}, "When the message was logged (trace clock, ns).")               \
  COLUMN(level, String, kNone, {},                                                               \
         "DEBUG, VERBOSE, INFO, WARN, ERROR, WTF or UNKNOWN; NULL if the message has no format.")\
  COLUMN(tag, String, kNone, {}, "The message's group tag.")                                     \
  COLUMN(message, String, kNone, {}, "The message with its parameters filled in.")               \
  COLUMN(stacktrace, String, kNone, {}, "The stack trace logged with the message, if any.")      \
  COLUMN(location, String, kNone, {}, "Where in the source the message is logged, if known.")
// clang-format on
TW_DEFINE_TABLE(TW_PROTOLOG_TABLE)

// clang-format off
#define TW_WINDOWMANAGER_WINDOWCONTAINER_TABLE(TABLE, COLUMN)                                    \
  TABLE(WindowManagerWindowContainerTable, windowmanager_windowcontainer,                        \
        "The window containers of each window manager dump, in hierarchy order (depth first).")  \
  COLUMN(snapshot_id, Uint32, kNone, {}, "The dump (windowmanager.id).")                         \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The container's own fields (not its children).")    \
  COLUMN(base64_proto_id, OptUint32, kNone, {},                                                  \
         "The container's proto without its children (base64), a string id.")                   \
  COLUMN(title, String, kNone, {}, "The container's title (a token's hash code in hex).")        \
  COLUMN(token, Int32, kNone, {}, "The container's token (its hash code).")                      \
  COLUMN(parent_token, OptInt32, kNone, {}, "The parent container's token (NULL for the root).") \
  COLUMN(child_index, OptUint32, kNone, {}, "Its index among the parent's children.")            \
  COLUMN(is_visible, OptUint32, kNone, {}, "1 when the container is visible.")                   \
  COLUMN(window_rect_id, OptUint32, kNone, {},                                                   \
         "Displays' and windows' rect as drawn (winscope_trace_rect.id).")                       \
  COLUMN(container_type, String, kNone, {},                                                      \
         "RootWindowContainer, DisplayContent, DisplayArea, Task, TaskFragment, Activity, "      \
         "WindowToken, WindowState or WindowContainer.")                                         \
  COLUMN(name_override, String, kNone, {},                                                       \
         "A better name for some containers (a task's id and name; the app a starting window "   \
         "stands for).")
// clang-format on
TW_DEFINE_TABLE(TW_WINDOWMANAGER_WINDOWCONTAINER_TABLE)

}  // namespace tw
