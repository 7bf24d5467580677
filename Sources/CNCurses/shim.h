// The part of ncursesw that Swift cannot reach: macros, globals and varargs, wrapped in tiny
// `static inline` functions prefixed `cn_` (STYLE.md 6; GRDB's shim.h does the same for SQLite).
// Only TerminalNcurses imports this module (ARCHITECTURE §1).
#ifndef CN_CURSES_SHIM_H
#define CN_CURSES_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <langinfo.h>
#include <locale.h>
#include <wchar.h>
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

// Globals.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline WINDOW *cn_curscr(void) { return curscr; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_err(void) { return ERR; }
static inline int cn_ok(void) { return OK; }

// Attributes and colour pairs (macros).
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_italic(void) { return A_ITALIC; }

// Keys (macros). Codes at or above KEY_MAX are terminfo's extended keys; keyname() names them.
static inline int cn_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cn_key_resize(void) { return KEY_RESIZE; }
static inline int cn_key_mouse(void) { return KEY_MOUSE; }
static inline int cn_key_up(void) { return KEY_UP; }
static inline int cn_key_down(void) { return KEY_DOWN; }
static inline int cn_key_left(void) { return KEY_LEFT; }
static inline int cn_key_right(void) { return KEY_RIGHT; }
static inline int cn_key_home(void) { return KEY_HOME; }
static inline int cn_key_end(void) { return KEY_END; }
static inline int cn_key_ppage(void) { return KEY_PPAGE; }
static inline int cn_key_npage(void) { return KEY_NPAGE; }
static inline int cn_key_backspace(void) { return KEY_BACKSPACE; }
static inline int cn_key_dc(void) { return KEY_DC; }
static inline int cn_key_ic(void) { return KEY_IC; }
static inline int cn_key_enter(void) { return KEY_ENTER; }
static inline int cn_key_btab(void) { return KEY_BTAB; }
static inline int cn_key_sleft(void) { return KEY_SLEFT; }
static inline int cn_key_sright(void) { return KEY_SRIGHT; }
static inline int cn_key_sr(void) { return KEY_SR; }
static inline int cn_key_sf(void) { return KEY_SF; }
static inline int cn_key_shome(void) { return KEY_SHOME; }
static inline int cn_key_send(void) { return KEY_SEND; }
static inline int cn_key_f0(void) { return KEY_F0; }
static inline int cn_key_max(void) { return KEY_MAX; }

// Mouse (macros; NCURSES_MOUSE_VERSION 2 has five buttons).
static inline mmask_t cn_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cn_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_button5_pressed(void) {
#ifdef BUTTON5_PRESSED
    return BUTTON5_PRESSED;
#else
    return 0;
#endif
}

/// wget_wch on stdscr: OK with a character, KEY_CODE_YES with a key code, ERR when no input.
static inline int cn_get_wch(int *value) {
    wint_t ch = 0;
    int result = wget_wch(stdscr, &ch);
    *value = (int)ch;
    return result;
}

/// One cell: up to CCHARW_MAX scalars (a base and its combining marks), attributes and a colour pair.
static inline int cn_mvadd_cell(int y, int x, const wchar_t *text, attr_t attributes, int pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attributes, (short)0, &pair) != OK) return ERR;
    return mvwadd_wch(stdscr, y, x, &cell);
}

static inline int cn_ccharw_max(void) { return CCHARW_MAX; }

/// The C library's column width of a character in the current locale (what ncurses uses).
static inline int cn_wcwidth(wchar_t c) { return wcwidth(c); }

/// The locale's character set after setlocale (e.g. "UTF-8", "ANSI_X3.4-1968").
static inline const char *cn_codeset(void) { return nl_langinfo(CODESET); }

/// Whether the current terminal (after newterm) can move the cursor to a row and column: terminfo's
/// `cup`. `TERM=dumb` and other line-only terminals cannot, and a full-screen app cannot run on them.
/// tigetstr answers NULL when absent and (char *)-1 when `cup` is not a string capability.
static inline int cn_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

#endif
