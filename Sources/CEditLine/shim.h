#ifndef BTS_CEDITLINE_SHIM_H
#define BTS_CEDITLINE_SHIM_H
// libedit's el_set/el_get/history are variadic; Swift cannot call variadic C.
// These static inline shims give each operation bts needs a fixed signature.
// bts uses the wide-character API (el_wgets, el_wline, history_w): every
// Char below is wchar_t (UTF-32 on Linux), so editing is independent of the
// multibyte conversion except for terminal output (which needs a UTF-8 LC_CTYPE).
#include <histedit.h>
#include <stdio.h>
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>

static inline FILE *bts_stdin(void) { return stdin; }
static inline FILE *bts_stdout(void) { return stdout; }
static inline FILE *bts_stderr(void) { return stderr; }

/// Editor function (EL_ADDFN): returns one of the CC_* codes.
typedef unsigned char (*bts_el_func_t)(EditLine *, int);
/// Wide prompt function (EL_PROMPT_ESC / EL_RPROMPT_ESC).
typedef wchar_t *(*bts_el_wpfunc_t)(EditLine *);
/// Character reader (EL_GETCFN): 1 = got a char, 0 = EOF, -1 = error.
typedef int (*bts_el_rfunc_t)(EditLine *, wchar_t *);

// MARK: editor

static inline int bts_el_set_clientdata(EditLine *el, void *data) { return el_wset(el, EL_CLIENTDATA, data); }
static inline void *bts_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_wget(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}
static inline int bts_el_set_getcfn(EditLine *el, bts_el_rfunc_t fn) { return el_wset(el, EL_GETCFN, fn); }
static inline int bts_el_set_prompt_esc(EditLine *el, bts_el_wpfunc_t fn, wchar_t esc) {
    return el_wset(el, EL_PROMPT_ESC, fn, (int)esc);
}
static inline int bts_el_set_rprompt_esc(EditLine *el, bts_el_wpfunc_t fn, wchar_t esc) {
    return el_wset(el, EL_RPROMPT_ESC, fn, (int)esc);
}
/// "emacs" or "vi" (resets the key maps to that mode's defaults).
static inline int bts_el_set_editor(EditLine *el, const wchar_t *mode) { return el_wset(el, EL_EDITOR, mode); }
static inline const wchar_t *bts_el_get_editor(EditLine *el) {
    const wchar_t *mode = NULL;
    if (el_wget(el, EL_EDITOR, &mode) != 0) return NULL;
    return mode;
}
static inline int bts_el_addfn(EditLine *el, const wchar_t *name, const wchar_t *help, bts_el_func_t fn) {
    return el_wset(el, EL_ADDFN, name, help, fn);
}
/// bind KEY FUNCTION in the main map (emacs, or vi insert mode).
static inline int bts_el_bind(EditLine *el, const wchar_t *key, const wchar_t *fn) {
    return el_wset(el, EL_BIND, key, fn, (const wchar_t *)NULL);
}
/// bind -a KEY FUNCTION: the alternate map (vi command mode).
static inline int bts_el_bind_alternate(EditLine *el, const wchar_t *key, const wchar_t *fn) {
    return el_wset(el, EL_BIND, L"-a", key, fn, (const wchar_t *)NULL);
}
/// setty -d MODE: terminal mode flag while editing (e.g. L"-isig").
static inline int bts_el_setty_edit(EditLine *el, const wchar_t *mode) {
    return el_wset(el, EL_SETTY, L"-d", mode, (const wchar_t *)NULL);
}
static inline int bts_el_set_signal(EditLine *el, int on) { return el_wset(el, EL_SIGNAL, on); }
static inline int bts_el_set_hist(EditLine *el, HistoryW *h) { return el_wset(el, EL_HIST, history_w, h); }
/// Terminal columns as libedit sees them (termcap "co"), or -1.
static inline int bts_el_columns(EditLine *el) {
    int cols = -1;
    if (el_get(el, EL_GETTC, "co", &cols, (void *)NULL) != 0) return -1;
    return cols;
}

// MARK: history (wide)

static inline int bts_history_setsize(HistoryW *h, int size) {
    HistEventW ev;
    return history_w(h, &ev, H_SETSIZE, size);
}
static inline int bts_history_setunique(HistoryW *h, int unique) {
    HistEventW ev;
    return history_w(h, &ev, H_SETUNIQUE, unique);
}
static inline int bts_history_enter(HistoryW *h, const wchar_t *line) {
    HistEventW ev;
    return history_w(h, &ev, H_ENTER, line);
}
static inline int bts_history_clear(HistoryW *h) {
    HistEventW ev;
    return history_w(h, &ev, H_CLEAR);
}
static inline int bts_history_count(HistoryW *h) {
    HistEventW ev;
    if (history_w(h, &ev, H_GETSIZE) != 0) return -1;
    return ev.num;
}

// MARK: locale

/// Ensures LC_CTYPE is a UTF-8 locale: the environment's if it is UTF-8, else C.UTF-8.
/// Returns 1 when a UTF-8 LC_CTYPE is active afterwards.
static inline int bts_setlocale_ctype_utf8(void) {
    setlocale(LC_CTYPE, "");
    const char *cs = nl_langinfo(CODESET);
    if (cs != NULL && (cs[0] == 'U' || cs[0] == 'u') && (cs[1] == 'T' || cs[1] == 't')) return 1;
    if (setlocale(LC_CTYPE, "C.UTF-8") != NULL) return 1;
    if (setlocale(LC_CTYPE, "C.utf8") != NULL) return 1;
    return 0;
}

#endif
