#ifndef BTS_SWIFT_RUNTIME_HOOKS_H
#define BTS_SWIFT_RUNTIME_HOOKS_H

// The Swift runtime's hook for jobs headed for the global concurrent executor
// (swift/Runtime/Concurrency.h: `swift_task_enqueueGlobal_hook`, a Swift-convention function
// `(Job *job, void (*original)(Job *)) -> void`; NULL: the runtime's own pool). Declared here as a
// plain pointer so that Swift can set it: the static runtime does not export it for `dlsym`, which
// is how swift-nio's take-over finds it (and why that take-over did nothing in bts's static build).
extern void *_Nullable swift_task_enqueueGlobal_hook;

/// Installs `hook` when no hook is installed yet; 1 when it was installed.
static inline int bts_install_enqueue_global_hook(void *_Nonnull hook) {
    if (swift_task_enqueueGlobal_hook != 0) return 0;
    swift_task_enqueueGlobal_hook = hook;
    return 1;
}

#endif
