//! The date and time functions against SQLite 3.54 (rusqlite, bundled):
//! `date`, `time`, `datetime`, `julianday`, `unixepoch`, `strftime`,
//! `timediff`, every modifier and time-value format, and `'now'`.
//!
//! Invariants pinned:
//! - every case of SQLite's date/time documentation and the boundaries of
//!   `date.c` (years 0000 and 9999, negative years, leap days, day-of-month
//!   overflow with `ceiling`/`floor`, `24:00`, fractional seconds, the
//!   limits of every `±NNN unit`, raw numbers as julian days and unix
//!   times, invalid inputs) give SQLite's value with SQLite's storage
//!   class, through SQL on both stores (the memory store and the B+tree
//!   store), including over a table of time values × modifiers;
//! - a seeded generator of time values, modifiers and formats agrees with
//!   SQLite on every case;
//! - `'now'` is one value for a whole statement, agrees with SQLite's to
//!   within a second, and moves between statements;
//! - `localtime` and `utc` agree with SQLite under other time zones (a
//!   child process per `TZ`, as both read it at start-up).

mod values_common;

use std::process::Command;

use asadb_sql::session::{Engine, Outcome, Params, Session};
use asadb_sql::value::Value;
use values_common::{Lcg, row_key};

/// Expressions compared as `SELECT <expr>`.
const CASES: &[&str] = &[
    // The documentation's examples.
    "date('2000-01-01', 'start of month', '+1 month', '-1 day')",
    "datetime(1092941466, 'unixepoch')",
    "datetime(1092941466, 'auto')",
    "datetime(1092941466, 'unixepoch', 'localtime')",
    "date('2004-08-19', 'start of year', '+9 months', 'weekday 2')",
    "julianday('2004-08-19') - julianday('1776-07-04')",
    "strftime('%s', '2004-01-01 02:34:56')",
    "unixepoch('2004-01-01 02:34:56')",
    "datetime(1092941466, 'unixepoch', 'subsec')",
    "timediff('2023-02-15', '2023-03-15')",
    "timediff('2023-03-15', '2023-02-15')",
    "timediff('2024-02-29', '2023-02-28')",
    "timediff('1970-01-01', '2000-01-01 12:34:56.789')",
    "date('2024-01-31', '+1 month')",
    "date('2024-01-31', '+1 month', 'ceiling')",
    "date('2024-01-31', '+1 month', 'floor')",
    "date('2023-01-31', '+1 month', 'floor')",
    "date('2024-03-31', '-1 month', 'floor')",
    "date('2024-02-29', '+1 year')",
    "date('2024-02-29', '+1 year', 'floor')",
    "date('2024-02-29', '-4 years')",
    "date('2024-01-31', '+0001-01-00')",
    "date('2024-01-31', '+0000-01-00', 'floor')",
    "datetime('2000-01-01 00:00:00', '+1 day', '-1 second')",
    "strftime('%Y-%m-%d %H:%M:%f', '2013-10-07 08:23:19.120')",
    "datetime('2013-10-07T08:23:19.120Z')",
    "datetime('2013-10-07 04:23:19.120-04:00')",
    "datetime('2013-10-07 04:23:19.120+04:00', 'subsec')",
    "julianday('2456572.84952685')",
    "datetime(2456572.84952685)",
    "datetime('2456572.84952685')",
    "datetime(2456572.84952685, 'julianday')",
    "datetime(1700000000, 'auto')",
    "datetime(2456572, 'auto')",
    "datetime(-1700000000, 'auto')",
    "datetime(1e11, 'auto')",
    "datetime(253402300799, 'auto')",
    "datetime(253402300800, 'auto')",
    "datetime(-210866760000, 'auto')",
    "datetime(-210866760001, 'auto')",
    "unixepoch('1970-01-01 00:00:00.999', 'subsec')",
    "unixepoch('1969-12-31 23:59:59.5')",
    "unixepoch('1969-12-31 23:59:59.5', 'subsec')",
    // Time-value formats.
    "datetime('2000-01-01')",
    "datetime('2000-01-01 12:34')",
    "datetime('2000-01-01 12:34:56')",
    "datetime('2000-01-01 12:34:56.7')",
    "datetime('2000-01-01 12:34:56.789', 'subsec')",
    "datetime('2000-01-01 12:34:56.78912345', 'subsec')",
    "datetime('2000-01-01 12:34:56.9999', 'subsec')",
    "strftime('%f', '2000-01-01 12:34:56.9999')",
    "strftime('%f', '2000-01-01 12:34:56.1235')",
    "strftime('%f', '2000-01-01 12:34:56.0005')",
    "datetime('2000-01-01T12:34:56')",
    "datetime('2000-01-01TT12:34:56')",
    "datetime('2000-01-01 T 12:34:56')",
    "datetime('2000-01-01   12:34')",
    "datetime('2000-01-01T')",
    "datetime('2000-01-01 ')",
    "datetime(' 2000-01-01')",
    "datetime('2000-01-01 12:34Z')",
    "datetime('2000-01-01 12:34z')",
    "datetime('2000-01-01 12:34 Z ')",
    "datetime('2000-01-01 12:34+01:30')",
    "datetime('2000-01-01 12:34 -01:30')",
    "datetime('2000-01-01 12:34+14:59')",
    "datetime('2000-01-01 12:34+15:00')",
    "datetime('2000-01-01 12:34+1:30')",
    "datetime('2000-01-01 12:34+0130')",
    "datetime('2000-01-01 12:34+00:00')",
    "datetime('2000-01-01 12:34-00:00', 'utc')",
    "datetime('2000-01-01 12:34:56Zjunk')",
    "datetime('2000-01-01+05:00')",
    "datetime('2000-01-01Z')",
    "time('12:34')",
    "time('12:34:56')",
    "time('12:34:56.5', 'subsec')",
    "date('12:34')",
    "datetime('12:34')",
    "datetime('12:34+02:00')",
    "julianday('12:00')",
    "time('24:00')",
    "datetime('24:00')",
    "datetime('24:00:00')",
    "datetime('24:00:01')",
    "datetime('24:01')",
    "datetime('2000-12-31 24:00')",
    "datetime('2000-02-28 24:00')",
    "datetime('2000-02-29 24:00:00.000')",
    "datetime('25:00')",
    "datetime('12:60')",
    "datetime('12:34:60')",
    "datetime('1:34')",
    "datetime('12:3')",
    "datetime('12:34:5')",
    "datetime('12:34:56.')",
    "datetime('12:34:56.x')",
    "datetime('now') IS NOT NULL",
    "datetime('NOW') IS NOT NULL",
    "datetime(' now')",
    "datetime('now ')",
    "datetime('subsec') IS NOT NULL",
    "datetime('subsecond') IS NOT NULL",
    "length(datetime('subsec'))",
    "length(datetime('now', 'subsec'))",
    "datetime('2000-1-01')",
    "datetime('2000-01-1')",
    "datetime('200-01-01')",
    "datetime('20000-01-01')",
    "datetime('2000/01/01')",
    "datetime('2000-00-01')",
    "datetime('2000-13-01')",
    "datetime('2000-01-00')",
    "datetime('2000-01-32')",
    "datetime('2000-02-30')",
    "datetime('2000-02-31 12:00')",
    "date('2001-02-29')",
    "date('2000-04-31')",
    "date('2000-04-31', '+0 days')",
    "datetime('0000-01-01 00:00:00')",
    "julianday('0000-01-01 00:00:00')",
    "datetime('9999-12-31 23:59:59')",
    "datetime('9999-12-31 23:59:59.999', 'subsec')",
    "datetime('9999-12-31 24:00')",
    "datetime('-0001-01-01')",
    "date('-4713-11-24 12:00:00')",
    "date('-4713-11-24 11:59:59')",
    "datetime('-4713-11-24 12:00:00')",
    "julianday('-4713-11-24 12:00:00')",
    "date('-4714-01-01')",
    "date('-9999-01-01')",
    "strftime('%Y %F %G %g', '-0044-03-15')",
    "datetime('')",
    "datetime(' ')",
    "datetime('abc')",
    "datetime(NULL)",
    "datetime('2000-01-01', NULL)",
    "datetime(x'323030302d30312d3031')",
    "datetime('2000-01-01', x'2b3120646179')",
    "datetime(CAST('2000-01-01' AS BLOB))",
    "date(zeroblob(0))",
    "datetime('2000-01-01' || char(0) || 'junk')",
    "datetime('2000-01-01', '+1 day' || char(0) || 'junk')",
    // Numbers as julian days or unix times.
    "datetime(0)",
    "datetime(0.0)",
    "datetime(-0.0)",
    "datetime(-1)",
    "datetime(-0.5)",
    "datetime(5373484.4999999)",
    "datetime(5373484.5)",
    "julianday(5373484.49999999)",
    "datetime(2451545)",
    "datetime('2451545')",
    "datetime(' 2451545 ')",
    "datetime('2451545x')",
    "datetime('2451545e0')",
    "datetime('+2451545')",
    "datetime('-2451545')",
    "datetime('.5')",
    "datetime('5.')",
    "datetime('1e999')",
    "datetime(1e999)",
    "datetime(-1e999)",
    "datetime(9223372036854775807)",
    "datetime(-9223372036854775808)",
    "datetime(1e300, 'unixepoch')",
    "datetime(0, 'unixepoch')",
    "datetime(-1, 'unixepoch')",
    "datetime(-210866760000, 'unixepoch')",
    "datetime(-210866760001, 'unixepoch')",
    "datetime(253402300799, 'unixepoch')",
    "datetime(253402300799.9994, 'unixepoch', 'subsec')",
    "datetime(253402300800, 'unixepoch')",
    "datetime(1.5, 'unixepoch', 'subsec')",
    "datetime('1.5', 'unixepoch', 'subsec')",
    "datetime(1234567890.123456, 'unixepoch', 'subsec')",
    "unixepoch(1234567890.123456, 'unixepoch', 'subsec')",
    "datetime('2000-01-01', 'unixepoch')",
    "datetime(1000, '+1 day', 'unixepoch')",
    "datetime(1000, 'unixepoch', 'unixepoch')",
    "datetime(1000, 'julianday')",
    "datetime(1e7, 'julianday')",
    "datetime('2000-01-01', 'julianday')",
    "datetime(2451545, '+1 day', 'julianday')",
    "datetime(2451545, 'auto', 'auto')",
    "datetime(2451545, '+0 days', 'auto')",
    "datetime(1e10, 'auto')",
    "datetime('2000-01-01', 'auto')",
    "datetime(1e10)",
    "date(1e10, 'start of day')",
    "date(1e10, 'unixepoch', 'start of day')",
    // ±NNN units.
    "datetime('2000-01-01', '+1 day')",
    "datetime('2000-01-01', '+1 days')",
    "datetime('2000-01-01', '1 day')",
    "datetime('2000-01-01', '-1.5 days')",
    "datetime('2000-01-01', '+1.75 hours')",
    "datetime('2000-01-01', '+90 minutes')",
    "datetime('2000-01-01', '+0.001 seconds', 'subsec')",
    "datetime('2000-01-01', '+0.0005 seconds', 'subsec')",
    "datetime('2000-01-01', '-0.0005 seconds', 'subsec')",
    "datetime('2000-01-01', '+1e3 seconds')",
    "datetime('2000-01-01', '+1.5 months')",
    "datetime('2000-01-31', '+1.5 months')",
    "datetime('2000-01-01', '-1.5 months')",
    "datetime('2000-01-01', '+1.5 years')",
    "datetime('2000-02-29', '+0.5 years')",
    "datetime('2000-01-01', '+12 months')",
    "datetime('2000-01-01', '-12 months')",
    "datetime('2000-01-01', '-13 months')",
    "datetime('2000-01-01', '+25 months')",
    "datetime('2000-01-01', '-24 months')",
    "datetime('2000-01-01', '+1 DAY')",
    "datetime('2000-01-01', '+1 DaYs')",
    "datetime('2000-01-01', '+1   days')",
    "datetime('2000-01-01', '+1days')",
    "datetime('2000-01-01', '+1 days ')",
    "datetime('2000-01-01', ' +1 days')",
    "datetime('2000-01-01', '+1 dayss')",
    "datetime('2000-01-01', '+1 d')",
    "datetime('2000-01-01', '+1 ds')",
    "datetime('2000-01-01', '+1 weeks')",
    "datetime('2000-01-01', '+ 1 day')",
    "datetime('2000-01-01', '++1 day')",
    "datetime('2000-01-01', '+1x day')",
    "datetime('2000-01-01', '+.5 day')",
    "datetime('2000-01-01', '+5. day')",
    "datetime('2000-01-01', '+1e1 day')",
    "datetime('2000-01-01', '1e+1 day')",
    "datetime('2000-01-01', '+1e day')",
    "datetime('2000-01-01', '+0 seconds')",
    "datetime('2000-01-01', '+464269060799 seconds')",
    "datetime('0000-01-01', '+464269060799 seconds')",
    "datetime('0000-01-01', '+464269999999999 seconds')",
    "datetime('0000-01-01', '+464270000000000 seconds')",
    "datetime('0000-01-01', '+7737900000000 minutes')",
    "datetime('0000-01-01', '+128970000000 hours')",
    "datetime('0000-01-01', '+5373484 days')",
    "datetime('0000-01-01', '+5373485 days')",
    "datetime('0000-01-01', '+176545 months')",
    "datetime('0000-01-01', '+176546 months')",
    "datetime('0000-01-01', '+119987 months')",
    "datetime('0000-01-01', '+9999 years')",
    "datetime('0000-01-01', '+10000 years')",
    "datetime('0000-01-01', '+14712 years')",
    "datetime('9999-01-01', '-14712 years')",
    "datetime('9999-01-01', '-14713 years')",
    "datetime('9999-12-31', '+1 day')",
    "datetime('0000-01-01', '-1 day')",
    "datetime('0000-01-01', '-1 year')",
    "datetime('-4713-11-24 12:00', '-1 second')",
    "datetime('2000-01-01', '+1e300 days')",
    "datetime('2000-01-01', '+1 day', '+1 day', '-3 days')",
    "datetime('2000-01-01', '+464269060799 seconds', '+464269060799 seconds', '-464269060799 seconds')",
    "datetime(0.1, '-1 day', '+2 days')",
    "datetime(0.1, '-1 day', 'start of day')",
    "datetime(0.1, '-1 day', 'start of day', 'localtime')",
    // ±HH:MM[:SS[.SSS]].
    "datetime('2000-01-01', '+01:30')",
    "datetime('2000-01-01', '-01:30')",
    "datetime('2000-01-01', '01:30')",
    "datetime('2000-01-01', '+01:30:15')",
    "datetime('2000-01-01', '+01:30:15.25', 'subsec')",
    "datetime('2000-01-01', '-00:00:00.001', 'subsec')",
    "datetime('2000-01-01', '+24:00')",
    "datetime('2000-01-01', '+23:59:59.999', 'subsec')",
    "datetime('2000-01-01', '+25:00')",
    "datetime('2000-01-01', '+1:30')",
    "datetime('2000-01-01', '+01:3')",
    "datetime('2000-01-01', '+01:30Z')",
    "datetime('2000-01-01', '+01:30+02:00')",
    "datetime('2000-01-01', '+01:30 junk')",
    "datetime('2000-01-01', '+x1:30')",
    // ±YYYY-MM-DD[ HH:MM[:SS[.SSS]]].
    "datetime('2000-01-01', '+0001-02-03')",
    "datetime('2000-01-01', '-0001-02-03')",
    "datetime('2000-03-31', '-0000-01-00')",
    "datetime('2000-03-31', '-0000-01-00', 'floor')",
    "datetime('2000-01-01', '+0001-11-30')",
    "datetime('2000-01-01', '+0001-12-00')",
    "datetime('2000-01-01', '+0001-00-31')",
    "datetime('2000-01-01', '+0001-02-03 04:05')",
    "datetime('2000-01-01', '+0001-02-03 04:05:06.789', 'subsec')",
    "datetime('2000-01-01', '-0001-02-03 04:05:06')",
    "datetime('2000-01-01', '+0001-02-03T04:05')",
    "datetime('2000-01-01', '+0001-02-03  04:05')",
    "datetime('2000-01-01', '+0001-02-03 4:05')",
    "datetime('2000-01-01', '+0001-02-03 ')",
    "datetime('2000-01-01', '+00010-02-03')",
    "datetime('2000-01-01', '+09999-00-00')",
    "datetime('2000-01-01', '-02000-00-00')",
    "datetime('2000-01-01', '+14712-00-00')",
    "datetime('2000-01-01', '0001-02-03')",
    "datetime('2000-01-01', '+001-02-03')",
    "datetime('2000-01-01', '+0001-2-03')",
    "datetime('2000-01-01', '+0001-02-3')",
    // start of / end of.
    "datetime('2000-05-17 12:34:56', 'start of day')",
    "datetime('2000-05-17 12:34:56', 'start of month')",
    "datetime('2000-05-17 12:34:56', 'start of year')",
    "datetime('2000-05-17 12:34:56', 'START OF YEAR')",
    "datetime('2000-05-17 12:34:56', 'start of week')",
    "datetime('2000-05-17 12:34:56', 'start of  day')",
    "datetime('2000-05-17 12:34:56', 'start of')",
    "datetime('12:34', 'start of day')",
    "datetime(1000, 'start of day')",
    "datetime('2000-05-17 12:34:56', 'end of day', 'subsec')",
    "datetime('2000-05-17 12:34:56', 'end of month')",
    "datetime('2000-02-17', 'end of month')",
    "datetime('2001-02-17', 'end of month')",
    "datetime('2000-12-17', 'end of month', 'subsec')",
    "datetime('2000-05-17', 'end of year', 'subsec')",
    "datetime('9999-12-17', 'end of month')",
    "datetime('9999-12-17', 'end of year')",
    "datetime('2000-05-17', 'end of week')",
    "datetime('2000-01-31', '+1 month', 'end of month')",
    // weekday.
    "date('2024-06-15', 'weekday 0')",
    "date('2024-06-15', 'weekday 6')",
    "date('2024-06-15', 'weekday 1')",
    "date('2024-06-15', 'weekday 7')",
    "date('2024-06-15', 'weekday -0')",
    "date('2024-06-16', 'weekday -0')",
    "date('2024-06-15', 'weekday -6')",
    "date('2024-06-15', 'weekday -7')",
    "date('2024-06-15', 'weekday 1.0')",
    "date('2024-06-15', 'weekday 1.5')",
    "date('2024-06-15', 'weekday  2')",
    "date('2024-06-15', 'weekday 2 ')",
    "date('2024-06-15', 'weekday +2')",
    "date('2024-06-15', 'weekday 2e0')",
    "date('2024-06-15', 'WEEKDAY 3')",
    "date('2024-06-15', 'weekday')",
    "date('2024-06-15', 'weekday x')",
    "datetime('2024-06-15 13:14', 'weekday 3')",
    "date('9999-12-31', 'weekday 0')",
    // Other modifiers.
    "datetime('2000-01-01 12:34:56.789', 'subsec')",
    "datetime('2000-01-01 12:34:56.789', 'subsecond')",
    "datetime('2000-01-01 12:34:56.789', 'SUBSEC')",
    "time('2000-01-01 12:34:56.789', 'subsec')",
    "unixepoch('2000-01-01 12:34:56.789', 'subsec')",
    "strftime('%s', '2000-01-01 12:34:56.789', 'subsec')",
    "datetime('2000-01-01', 'ceiling')",
    "datetime('2000-01-01', 'floor')",
    "datetime('2000-02-31', 'floor')",
    "datetime('2000-02-31', 'ceiling')",
    "datetime('2000-02-31', '+0 days', 'floor')",
    "datetime('2000-01-01', 'bogus')",
    "datetime('2000-01-01', '')",
    "datetime('2000-01-01', ' ')",
    "datetime('2000-01-01', 5)",
    "datetime('2000-01-01', 1.5)",
    "datetime('2000-01-01', 'localtime')",
    "datetime('2000-01-01', 'utc')",
    "datetime('2000-01-01', 'localtime', 'utc')",
    "datetime('2000-01-01', 'utc', 'utc')",
    "datetime('2000-01-01 12:00:00.5', 'subsec', 'utc')",
    "datetime('2000-01-01 12:00:00.5Z', 'subsec', 'utc')",
    "datetime(1092941466, 'unixepoch', 'localtime', 'start of day', 'utc')",
    // strftime: every conversion, at several dates.
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', '2024-01-01 00:00:00')",
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', '2021-01-03 13:05:09.25')",
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', '2020-12-31 12:00:00')",
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', '2008-12-29 23:59:59.999')",
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', '2010-01-03 11:00')",
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', '0000-01-01')",
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', '9999-12-31 23:59:59.999')",
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', '-0001-06-15 12:00')",
    "strftime('%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%V|%w|%W|%U|%Y|%%', 0)",
    "strftime('%G-W%V-%u', '2005-01-01')",
    "strftime('%G-W%V-%u', '2005-01-02')",
    "strftime('%G-W%V-%u', '2007-12-31')",
    "strftime('%G-W%V-%u', '2008-12-28')",
    "strftime('%G-W%V-%u', '2009-12-31')",
    "strftime('%G-W%V-%u', '2010-01-03')",
    "strftime('%U %W %j', '2023-12-31')",
    "strftime('%U %W %j', '2024-12-31')",
    "strftime('%s', '2000-01-01', 'subsec')",
    "strftime('%s', '1960-01-01 00:00:00.5', 'subsec')",
    "strftime('%J', '2000-01-01 00:00:00.001')",
    "strftime('%J', 0)",
    "strftime('%J', 5373484.4999999)",
    "strftime('%f', '2000-01-01 00:00:59.9999')",
    "strftime('%H %k %I %l %p %P', '2000-01-01 00:30')",
    "strftime('%H %k %I %l %p %P', '2000-01-01 11:30')",
    "strftime('%H %k %I %l %p %P', '2000-01-01 12:30')",
    "strftime('%H %k %I %l %p %P', '2000-01-01 23:30')",
    "strftime('%Q', '2000-01-01')",
    "strftime('%', '2000-01-01')",
    "strftime('abc%', '2000-01-01')",
    "strftime('%E', '2000-01-01')",
    "strftime('%D', '2000-01-01')",
    "strftime('%c', '2000-01-01')",
    "strftime('%a %b', '2000-01-01')",
    "strftime('', '2000-01-01')",
    "strftime('plain text', '2000-01-01')",
    "strftime('é%Yü', '2000-01-01')",
    "strftime(NULL, '2000-01-01')",
    "strftime('%Y', NULL)",
    "strftime('%Y', 'junk')",
    "strftime(5, '2000-01-01')",
    "strftime('%Y%m%d', 2451545)",
    "strftime('%Y-%m-%d', '2000-01-01', '+1 month', 'start of month', '-1 day')",
    "strftime('%Y', '2000-01-01' , 'bogus')",
    "strftime('%%Y', '2000-01-01')",
    "strftime('%Y' || char(0) || '%m', '2000-01-01')",
    "strftime('%Y') = strftime('%Y', 'now')",
    "strftime()",
    // timediff.
    "timediff('2000-01-01', '2000-01-01')",
    "timediff('2000-01-02', '2000-01-01')",
    "timediff('2000-01-01', '2000-01-02')",
    "timediff('2000-03-01', '2000-01-31')",
    "timediff('2000-01-31', '2000-03-01')",
    "timediff('2001-03-01', '2000-02-29')",
    "timediff('2000-02-29', '2001-03-01')",
    "timediff('2024-05-31 10:00', '2024-02-29 23:00')",
    "timediff('2024-02-29 23:00', '2024-05-31 10:00')",
    "timediff('9999-12-31 23:59:59.999', '0000-01-01')",
    "timediff('0000-01-01', '9999-12-31 23:59:59.999')",
    "timediff('-4713-11-24 12:00', '9999-12-31 23:59:59.999')",
    "timediff('9999-12-31', '9999-11-30')",
    "timediff('9999-11-30', '9999-12-31')",
    "timediff(2451545, 2451544.25)",
    "timediff('2000-01-01 12:00:00.123', '2000-01-01 12:00:00.456')",
    "timediff('2000-01-01', NULL)",
    "timediff(NULL, '2000-01-01')",
    "timediff('2000-01-01', 'junk')",
    "timediff('2000-02-31', '2000-01-31')",
    "timediff('2000-01-01', '2000-01-01', '2000')",
    "timediff('2000-01-01')",
    // Other functions: values, classes, arities.
    "julianday('2000-01-01 12:00:00.5')",
    "julianday(2451545)",
    "julianday('2451545.5')",
    "julianday('2000-01-01', 'subsec')",
    "typeof(unixepoch('2000-01-01'))",
    "typeof(unixepoch('2000-01-01', 'subsec'))",
    "typeof(julianday('2000-01-01'))",
    "unixepoch('0000-01-01')",
    "unixepoch('9999-12-31 23:59:59')",
    "unixepoch('-4713-11-24 12:00')",
    "unixepoch('-4713-11-24 12:00', 'subsec')",
    "date('2000-01-01', '+1 day', '+1 day', '+1 day', '+1 day', '+1 day', '+1 day')",
    "typeof(current_date)",
    "typeof(current_time)",
    "typeof(current_timestamp)",
    "length(current_date)",
    "length(current_time)",
    "length(current_timestamp)",
    "current_date = date('now')",
    "current_time = time('now')",
    "current_timestamp = datetime('now')",
    "CURRENT_TIMESTAMP = datetime()",
    "date() = date('now')",
    "time() = time('now')",
    "julianday() = julianday('now')",
    "unixepoch() = unixepoch('now')",
];

/// Statements that SQLite refuses (and so must we).
const ERRORS: &[&str] = &[
    "SELECT timediff('2000-01-01')",
    "SELECT timediff('2000-01-01', '2000-01-01', '2000-01-01')",
    "SELECT current_date()",
    "SELECT current_timestamp(1)",
];

const TIME_VALUES: &[&str] = &[
    "'2000-01-01'",
    "'2024-02-29 13:45:10.250'",
    "'1999-12-31T23:59:59Z'",
    "'2013-10-07 04:23:19.120-04:00'",
    "'0000-01-01 00:00'",
    "'9999-12-31 23:59:59'",
    "'-0100-03-01'",
    "'12:30'",
    "'24:00'",
    "2451545",
    "2451545.75",
    "1700000000",
    "-86400",
    "0",
    "'2451545'",
    "'junk'",
    "NULL",
];

const MODIFIERS: &[&str] = &[
    "'+1 day'",
    "'-1.5 hours'",
    "'+13 months'",
    "'-1 year'",
    "'+0001-01-01 01:01'",
    "'-12:30:15.5'",
    "'start of month'",
    "'start of year'",
    "'end of month'",
    "'weekday 3'",
    "'weekday -1'",
    "'unixepoch'",
    "'auto'",
    "'julianday'",
    "'subsec'",
    "'floor'",
    "'ceiling'",
    "'localtime'",
    "'utc'",
    "'bogus'",
];

fn engines() -> Vec<Engine> {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
    vec![Engine::memory(), Engine::with_db(db)]
}

fn ours(s: &mut Session, sql: &str) -> Result<Vec<Vec<Value>>, String> {
    match s.execute(sql, &Params::None).map_err(|e| e.to_string())? {
        Outcome::Rows { rows, .. } => Ok(rows),
        o => Err(format!("not rows: {o:?}")),
    }
}

/// A mismatch between our rows and SQLite's for `sql`, if any.
fn compare(s: &mut Session, c: &rusqlite::Connection, sql: &str) -> Option<String> {
    let theirs = values_common::sqlite_query(c, sql).map(|r| r.1);
    match (ours(s, sql), theirs) {
        (Ok(a), Ok(b)) => {
            let ka: Vec<String> = a.iter().map(|r| row_key(r)).collect();
            let kb: Vec<String> = b.iter().map(|r| row_key(r)).collect();
            (ka != kb).then(|| format!("{sql}\n  ours:   {ka:?}\n  sqlite: {kb:?}"))
        }
        (Err(_), Err(_)) => None,
        (a, b) => Some(format!("{sql}\n  ours:   {a:?}\n  sqlite: {b:?}")),
    }
}

fn report(diffs: &[String]) {
    for d in diffs.iter().take(60) {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} cases differ from SQLite", diffs.len());
}

#[test]
fn documented_and_edge_cases_match_sqlite() {
    let c = rusqlite::Connection::open_in_memory().unwrap();
    let mut diffs = Vec::new();
    for e in engines() {
        let mut s = e.session();
        for case in CASES {
            diffs.extend(compare(&mut s, &c, &format!("SELECT {case}")));
        }
    }
    report(&diffs);
}

#[test]
fn refused_calls_are_errors() {
    let c = rusqlite::Connection::open_in_memory().unwrap();
    for e in engines() {
        let mut s = e.session();
        for q in ERRORS {
            assert!(values_common::sqlite_query(&c, q).is_err(), "SQLite accepts {q}");
            assert!(ours(&mut s, q).is_err(), "we accept {q}");
        }
    }
}

/// Time values × modifiers stored in tables, read back through a join.
#[test]
fn table_of_values_and_modifiers_matches_sqlite() {
    let setup = [
        "CREATE TABLE tv(id INTEGER PRIMARY KEY, v)".to_string(),
        "CREATE TABLE md(id INTEGER PRIMARY KEY, m TEXT)".to_string(),
        format!(
            "INSERT INTO tv(v) VALUES {}",
            TIME_VALUES.iter().map(|v| format!("({v})")).collect::<Vec<_>>().join(", ")
        ),
        format!(
            "INSERT INTO md(m) VALUES {}",
            MODIFIERS.iter().map(|m| format!("({m})")).collect::<Vec<_>>().join(", ")
        ),
    ];
    let queries = [
        "SELECT tv.id, md.id, datetime(v, m, 'subsec'), julianday(v, m), unixepoch(v, m) \
         FROM tv, md ORDER BY tv.id, md.id",
        "SELECT tv.id, md.id, strftime('%F %T %j %V %u', v, m, '+1 day'), date(v, '+1 month', m) \
         FROM tv JOIN md ORDER BY 1, 2",
        "SELECT a.id, b.id, timediff(a.v, b.v) FROM tv a, tv b ORDER BY 1, 2",
        "SELECT count(*), count(DISTINCT date(v)), min(datetime(v)), max(julianday(v)) FROM tv",
        "SELECT id FROM tv WHERE date(v) > '2000-01-01' ORDER BY id",
        "SELECT date(v) AS d, count(*) FROM tv GROUP BY d ORDER BY d",
    ];
    let c = rusqlite::Connection::open_in_memory().unwrap();
    for q in &setup {
        c.execute_batch(q).unwrap();
    }
    let mut diffs = Vec::new();
    for e in engines() {
        let mut s = e.session();
        for q in &setup {
            s.execute(q, &Params::None).unwrap_or_else(|e| panic!("{q}: {e}"));
        }
        for q in queries {
            diffs.extend(compare(&mut s, &c, q));
        }
    }
    report(&diffs);
}

// ---- the generator ----

fn pick<'a>(g: &mut Lcg, xs: &[&'a str]) -> &'a str {
    xs[g.below(xs.len() as u64) as usize]
}

fn digits(g: &mut Lcg, n: usize, max: u64) -> String {
    format!("{:0n$}", g.below(max + 1))
}

/// A time string: mostly well-formed, with broken fields now and then.
fn gen_time_text(g: &mut Lcg) -> String {
    let mut s = String::new();
    let date = g.below(5) != 0;
    if date {
        if g.below(12) == 0 {
            s.push('-');
        }
        let year = match g.below(6) {
            0 => pick(g, &["0000", "9999", "1970", "2000", "1900", "2100", "4713"]).to_string(),
            _ => digits(g, 4, 9999),
        };
        s.push_str(&year);
        s.push('-');
        s.push_str(&if g.below(10) == 0 {
            digits(g, 2, 99)
        } else {
            format!("{:02}", 1 + g.below(12))
        });
        s.push('-');
        s.push_str(&if g.below(10) == 0 {
            digits(g, 2, 99)
        } else {
            format!("{:02}", 1 + g.below(31))
        });
    }
    let time = !date || g.below(3) != 0;
    if time {
        if date {
            s.push_str(pick(g, &[" ", "T", "  ", " T"]));
        }
        let h = if g.below(10) == 0 { digits(g, 2, 99) } else { format!("{:02}", g.below(25)) };
        s.push_str(&h);
        s.push(':');
        s.push_str(&if g.below(15) == 0 {
            digits(g, 2, 99)
        } else {
            format!("{:02}", g.below(60))
        });
        if g.below(3) != 0 {
            s.push(':');
            let max = if g.below(15) == 0 { 100 } else { 60 };
            s.push_str(&format!("{:02}", g.below(max)));
            if g.below(2) == 0 {
                s.push('.');
                let n = 1 + g.below(7) as usize;
                s.push_str(&digits(g, n, 10u64.pow(n as u32) - 1));
            }
        }
        match g.below(8) {
            0 => s.push('Z'),
            1 => s.push_str(&format!(
                "{}{:02}:{:02}",
                if g.below(2) == 0 { '+' } else { '-' },
                g.below(16),
                g.below(61)
            )),
            2 => s.push(' '),
            _ => {}
        }
    }
    if g.below(25) == 0 && !s.is_empty() {
        // A damaged string: cut short or with a stray byte.
        let at = g.below(s.len() as u64) as usize;
        if g.below(2) == 0 {
            s.truncate(at);
        } else {
            s.insert(at, pick(g, &["x", "-", ":", " ", "."]).chars().next().unwrap());
        }
    }
    s
}

fn gen_number(g: &mut Lcg) -> f64 {
    match g.below(5) {
        0 => g.below(5_373_485) as f64 + g.below(1000) as f64 / 1000.0,
        1 => g.below(300_000_000_000) as f64 - 210_866_760_000.0,
        2 => (g.below(4_000_000_000) as f64 - 2e9) / 7.0,
        3 => [
            0.0,
            -0.5,
            5373484.5,
            5373484.4999,
            253402300799.0,
            253402300800.0,
            -210866760000.0,
            1e15,
        ][g.below(8) as usize],
        _ => g.below(2_000_000_000) as f64,
    }
}

fn gen_time_value(g: &mut Lcg) -> Value {
    match g.below(10) {
        0..=5 => Value::Text(gen_time_text(g).into()),
        6 => Value::Integer(gen_number(g) as i64),
        7 => Value::Real(gen_number(g)),
        8 => Value::Text(format!("{}", gen_number(g)).into()),
        _ => Value::Text(pick(g, &["now", "subsec", "", "abc", "2451545.0", " 2451545 "]).into()),
    }
}

fn gen_modifier(g: &mut Lcg) -> Value {
    let sign = |g: &mut Lcg| pick(g, &["+", "-", "", "+", "-"]).to_string();
    let s = match g.below(24) {
        0..=6 => {
            let n = match g.below(4) {
                0 => format!("{}", g.below(100)),
                1 => format!("{}.{}", g.below(100), g.below(1000)),
                2 => format!("{}e{}", g.below(10), g.below(4)),
                _ => format!("{}", g.below(20_000)),
            };
            let unit = pick(
                g,
                &[
                    "day", "days", "hour", "hours", "minute", "minutes", "second", "seconds",
                    "month", "months", "year", "years", "DAYS", "Month", "days", "months",
                ],
            );
            let unit = if g.below(30) == 0 { pick(g, &["week", "d", "fortnight"]) } else { unit };
            format!("{}{n}{}{unit}", sign(g), pick(g, &[" ", " ", "  ", ""]))
        }
        7..=9 => format!(
            "{}{:02}:{:02}{}",
            sign(g),
            g.below(26),
            g.below(61),
            if g.below(2) == 0 {
                format!(":{:02}.{}", g.below(60), g.below(1000))
            } else {
                String::new()
            }
        ),
        10..=12 => {
            let max = if g.below(3) == 0 { 15000 } else { 30 };
            let mmax = if g.below(10) == 0 { 13 } else { 12 };
            let dmax = if g.below(10) == 0 { 32 } else { 31 };
            format!(
                "{}{:04}-{:02}-{:02}{}",
                pick(g, &["+", "-", ""]),
                g.below(max),
                g.below(mmax),
                g.below(dmax),
                if g.below(3) == 0 {
                    format!(" {:02}:{:02}", g.below(25), g.below(60))
                } else {
                    String::new()
                }
            )
        }
        13..=15 => pick(
            g,
            &[
                "start of day",
                "start of month",
                "start of year",
                "end of day",
                "end of month",
                "end of year",
                "start of week",
            ],
        )
        .to_string(),
        16 | 17 => format!(
            "weekday {}",
            pick(g, &["0", "1", "2", "3", "4", "5", "6", "-3", "-0", "7", "1.5", "2.0"])
        ),
        18 | 19 => pick(g, &["unixepoch", "julianday", "auto", "subsec", "subsecond"]).to_string(),
        20 | 21 => pick(g, &["ceiling", "floor", "localtime", "utc"]).to_string(),
        22 => pick(g, &["", "bogus", "+", "1", "+1", "weekday", "start of", "+1 day junk"])
            .to_string(),
        _ => return Value::Integer(g.below(10) as i64),
    };
    Value::Text(s.into())
}

const FORMATS: &[&str] = &[
    "%d", "%e", "%f", "%F", "%G", "%g", "%H", "%I", "%j", "%J", "%k", "%l", "%m", "%M", "%p", "%P",
    "%R", "%s", "%S", "%T", "%u", "%V", "%w", "%W", "%U", "%Y", "%%", "x", "%", "%q",
];

fn gen_call(g: &mut Lcg) -> (&'static str, Vec<Value>) {
    let f =
        pick(g, &["date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff"]);
    let mut args = Vec::new();
    if f == "strftime" {
        let n = 1 + g.below(4);
        let fmt: String = (0..n).map(|_| pick(g, FORMATS)).collect::<Vec<_>>().join("|");
        args.push(Value::Text(fmt.into()));
    }
    // 'now' differs between the two engines' clocks: keep it out of the
    // value comparison (tested on its own below).
    let mut value = || match gen_time_value(g) {
        Value::Text(s) if s == "now" || s == "subsec" => Value::Text("2000-01-01".into()),
        v => v,
    };
    args.push(value());
    if f == "timediff" {
        args.push(value());
        return (f, args);
    }
    for _ in 0..g.below(4) {
        args.push(gen_modifier(g));
    }
    (f, args)
}

#[test]
fn generated_calls_match_sqlite() {
    let c = rusqlite::Connection::open_in_memory().unwrap();
    let cases = std::env::var("DATETIME_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let mut g = Lcg(0x5eed_da7e);
    let mut diffs = Vec::new();
    let mut answered = 0;
    for _ in 0..cases {
        let (f, args) = gen_call(&mut g);
        if let Err(d) = values_common::check(&c, f, &args) {
            diffs.push(d);
        }
        let sql = values_common::op_sql(f, args.len());
        answered += values_common::sqlite_eval(&c, &sql, &args).is_ok_and(|v| !v.is_null()) as u32;
    }
    report(&diffs);
    // Not a test of NULL = NULL: most generated calls have an answer.
    assert!(answered > cases / 3, "only {answered} of {cases} calls are not NULL");
}

// ---- 'now' ----

fn one(s: &mut Session, sql: &str) -> Value {
    ours(s, sql).unwrap_or_else(|e| panic!("{sql}: {e}")).remove(0).remove(0)
}

#[test]
fn now_is_one_value_per_statement() {
    for e in engines() {
        let mut s = e.session();
        // Long enough to cross many milliseconds: every row still sees
        // the same instant.
        let q = "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 200000) \
                 SELECT count(DISTINCT julianday('now')), count(DISTINCT strftime('%f')), \
                 count(DISTINCT unixepoch('subsec')), min(current_timestamp) = max(datetime('now')) FROM c";
        let started = std::time::Instant::now();
        let row = ours(&mut s, q).unwrap().remove(0);
        assert!(started.elapsed() > std::time::Duration::from_millis(2), "too fast to tell");
        assert_eq!(
            row,
            vec![Value::Integer(1), Value::Integer(1), Value::Integer(1), Value::Integer(1)]
        );
        // Two statements see two instants.
        let a = one(&mut s, "SELECT julianday('now')");
        std::thread::sleep(std::time::Duration::from_millis(5));
        let b = one(&mut s, "SELECT julianday('now')");
        assert!(b.to_f64() > a.to_f64(), "{a:?} then {b:?}");
    }
}

#[test]
fn now_agrees_with_sqlite() {
    let c = rusqlite::Connection::open_in_memory().unwrap();
    for e in engines() {
        let mut s = e.session();
        // Our 'now' lies between two readings of SQLite's, to the
        // millisecond (so well within a second of it).
        let q = "SELECT unixepoch('now', 'subsec')";
        let sqlite_now = || values_common::sqlite_query(&c, q).unwrap().1[0][0].to_f64();
        let before = sqlite_now();
        let mine = one(&mut s, q).to_f64();
        let after = sqlite_now();
        assert!(before - 0.001 <= mine && mine <= after + 0.001, "{before} <= {mine} <= {after}");
        for q in [
            "SELECT typeof(datetime('now')), length(datetime('now')), length(datetime('now', 'subsec'))",
            "SELECT typeof(unixepoch()), typeof(unixepoch('subsec')), typeof(julianday())",
            "SELECT date('now') = current_date, time('now') = current_time",
        ] {
            let theirs = values_common::sqlite_query(&c, q).unwrap().1;
            assert_eq!(ours(&mut s, q).unwrap(), theirs, "{q}");
        }
    }
}

// ---- other time zones ----

/// Cases whose answer depends on the local time zone.
const ZONE_CASES: &[&str] = &[
    "datetime('2000-01-01 12:00', 'localtime')",
    "datetime('2000-07-01 12:00', 'localtime')",
    "datetime('2000-01-01 12:00', 'utc')",
    "datetime('2000-07-01 12:00', 'utc')",
    "datetime('2000-07-01 12:00', 'localtime', 'utc')",
    "datetime('2000-07-01 12:00', 'utc', 'localtime')",
    "datetime('2000-07-01 12:00Z', 'utc')",
    "datetime('2000-07-01 12:00+02:00', 'utc')",
    "datetime('2000-07-01 12:00', 'localtime', 'localtime')",
    "datetime('2024-03-10 06:59:59', 'localtime')",
    "datetime('2024-03-10 07:00:00', 'localtime')",
    "datetime('2024-03-10 02:30:00', 'utc')",
    "datetime('2024-11-03 01:30:00', 'utc')",
    "datetime('2024-03-31 01:30:00', 'utc')",
    "datetime('2024-10-27 02:30:00', 'utc')",
    "datetime('2024-10-06 02:30:00', 'utc')",
    "datetime('2024-04-07 02:30:00', 'utc')",
    "datetime('1900-07-01 12:00', 'localtime')",
    "datetime('1969-12-31 23:00', 'localtime')",
    "datetime('2038-01-19 12:00', 'localtime')",
    "datetime('2100-07-01 12:00', 'localtime')",
    "datetime('0001-07-01 12:00', 'localtime')",
    "datetime('9999-12-31 23:00', 'localtime')",
    "datetime('0000-01-01 00:30', 'utc')",
    "datetime('2000-07-01 12:00:00.250', 'localtime', 'subsec')",
    "datetime(1092941466, 'unixepoch', 'localtime')",
    "datetime(1092941466, 'unixepoch', 'localtime', 'start of day', 'utc')",
    "datetime('2000-07-01 12:00', 'localtime', '+6 months', 'utc')",
    "strftime('%s %H', '2000-07-01 12:00', 'localtime')",
    "unixepoch('2000-07-01 12:00', 'utc')",
    "date('now', 'localtime') = date(datetime('now', 'localtime'))",
    "datetime(0.1, '-1 day', 'start of day', 'localtime')",
];

/// Runs under the `TZ` the parent gave: every zone case against SQLite.
/// Ignored in the ordinary run (the parent test starts it).
#[test]
#[ignore]
fn zone_child() {
    let c = rusqlite::Connection::open_in_memory().unwrap();
    let mut diffs = Vec::new();
    for e in engines() {
        let mut s = e.session();
        for case in ZONE_CASES {
            diffs.extend(compare(&mut s, &c, &format!("SELECT {case}")));
        }
    }
    // Generated calls, with a localtime or utc modifier in each.
    let mut g = Lcg(0x70ce);
    for _ in 0..3000 {
        let (f, mut args) = gen_call(&mut g);
        let at = (f == "strftime") as usize + 1;
        if f != "timediff" {
            let m = pick(&mut g, &["localtime", "utc"]);
            args.insert(at + g.below((args.len() - at + 1) as u64) as usize, Value::Text(m.into()));
        }
        if let Err(d) = values_common::check(&c, f, &args) {
            diffs.push(d);
        }
    }
    report(&diffs);
}

#[test]
fn localtime_and_utc_match_sqlite_in_other_zones() {
    let exe = std::env::current_exe().unwrap();
    for tz in [
        "America/New_York",
        "Europe/Berlin",
        "Australia/Sydney",
        "Asia/Kolkata",
        "Pacific/Chatham",
        "EST5EDT,M3.2.0,M11.1.0",
        "<+0530>-5:30",
        "UTC",
    ] {
        let out = Command::new(&exe)
            .args(["zone_child", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
            .env("TZ", tz)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "TZ={tz}:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("1 passed"),
            "TZ={tz}: the child ran no test"
        );
    }
}

// ---- CURRENT_* and 'now' as column defaults ----

const DEFAULTS_TABLE: &str = "CREATE TABLE ev(id INTEGER PRIMARY KEY, batch INTEGER, \
    ts TEXT DEFAULT CURRENT_TIMESTAMP, d DEFAULT CURRENT_DATE, t DEFAULT current_time, \
    dt DEFAULT (datetime('now')), jd REAL DEFAULT (julianday('now')), \
    ue INTEGER DEFAULT (unixepoch()), ms DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')), \
    nn TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)";

const DEFAULTS_INSERTS: &[&str] = &[
    "INSERT INTO ev(batch) VALUES (1)",
    "INSERT INTO ev DEFAULT VALUES",
    "INSERT INTO ev(batch) WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 30000) \
     SELECT 3 FROM c",
    "INSERT INTO ev(batch, ts) VALUES (4, 'given'), (4, NULL)",
    "INSERT OR REPLACE INTO ev(batch, nn) VALUES (5, NULL)",
];

/// Per row, what must agree with SQLite exactly: the storage classes and
/// shapes of the defaults (their values are times, compared below).
const DEFAULTS_SHAPE: &str = "SELECT batch, typeof(ts), length(ts), typeof(d), length(d), typeof(t), \
    length(t), typeof(dt), typeof(jd), typeof(ue), length(ms), typeof(nn), ts = dt, ts = nn, \
    d = date(dt), t = time(dt), ue = unixepoch(dt) FROM ev ORDER BY id";

#[test]
fn current_time_defaults_are_filled_per_statement() {
    let c = rusqlite::Connection::open_in_memory().unwrap();
    c.execute_batch(DEFAULTS_TABLE).unwrap();
    for q in DEFAULTS_INSERTS {
        c.execute_batch(q).unwrap();
    }
    let theirs = values_common::sqlite_query(&c, DEFAULTS_SHAPE).unwrap().1;
    for e in engines() {
        let mut s = e.session();
        s.execute(DEFAULTS_TABLE, &Params::None).unwrap();
        for q in DEFAULTS_INSERTS {
            s.execute(q, &Params::None).unwrap_or_else(|e| panic!("{q}: {e}"));
        }
        assert_eq!(ours(&mut s, DEFAULTS_SHAPE).unwrap(), theirs);
        // Every row of one statement got the same instant ...
        let per_batch = "SELECT count(DISTINCT ms), count(DISTINCT jd) FROM ev WHERE batch = 3";
        assert_eq!(
            ours(&mut s, per_batch).unwrap(),
            vec![vec![Value::Integer(1), Value::Integer(1)]]
        );
        // ... a later statement gets a later one, and that one is SQLite's
        // clock reading at the time (both read the system clock to the
        // millisecond).
        std::thread::sleep(std::time::Duration::from_millis(5));
        let sqlite_now =
            || values_common::sqlite_query(&c, "SELECT julianday('now')").unwrap().1[0][0].to_f64();
        let before = sqlite_now();
        s.execute("INSERT INTO ev(batch) VALUES (6)", &Params::None).unwrap();
        let after = sqlite_now();
        let jd = one(&mut s, "SELECT jd FROM ev WHERE batch = 6").to_f64();
        let ms = 1.0 / 86_400_000.0;
        assert!(before - ms <= jd && jd <= after + ms, "{before} <= {jd} <= {after}");
        let later =
            "SELECT (SELECT jd FROM ev WHERE batch = 6) > (SELECT max(jd) FROM ev WHERE batch = 3)";
        assert_eq!(one(&mut s, later), Value::Integer(1));
    }
}

/// A default that reads the clock is not a constant: ALTER TABLE ADD
/// COLUMN refuses it when the table has rows (old rows could not be
/// padded with it), as SQLite does, and takes it on an empty table.
#[test]
fn non_constant_defaults_in_alter_table() {
    let steps: &[(&str, bool)] = &[
        ("CREATE TABLE a(x)", true),
        ("ALTER TABLE a ADD COLUMN y DEFAULT CURRENT_TIMESTAMP", true),
        ("ALTER TABLE a ADD COLUMN z NOT NULL DEFAULT NULL", true),
        ("INSERT INTO a(x, z) VALUES (1, 2)", true),
        ("ALTER TABLE a ADD COLUMN w DEFAULT CURRENT_TIMESTAMP", false),
        ("ALTER TABLE a ADD COLUMN w DEFAULT (datetime('now'))", false),
        ("ALTER TABLE a ADD COLUMN w NOT NULL", false),
        ("ALTER TABLE a ADD COLUMN w DEFAULT 'const'", true),
    ];
    for e in engines() {
        let c = rusqlite::Connection::open_in_memory().unwrap();
        let mut s = e.session();
        for (q, ok) in steps {
            assert_eq!(c.execute_batch(q).is_ok(), *ok, "SQLite: {q}");
            assert_eq!(s.execute(q, &Params::None).is_ok(), *ok, "ours: {q}");
        }
        let q = "SELECT x, typeof(y), length(y), z, w FROM a";
        assert_eq!(ours(&mut s, q).unwrap(), values_common::sqlite_query(&c, q).unwrap().1);
    }
}

/// The defaults survive the catalog: a reopened database file still
/// fills them in.
#[test]
fn current_time_defaults_after_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.db");
    {
        let e = Engine::open(&path, asadb_txn::Options::default()).unwrap();
        let mut s = e.session();
        s.execute(DEFAULTS_TABLE, &Params::None).unwrap();
    }
    let e = Engine::open(&path, asadb_txn::Options::default()).unwrap();
    let mut s = e.session();
    s.execute("INSERT INTO ev(batch) VALUES (1), (2)", &Params::None).unwrap();
    let q = "SELECT count(*), count(DISTINCT ts), min(ts = dt AND ts = nn AND d = date(dt)), \
             typeof(min(jd)) FROM ev";
    assert_eq!(
        ours(&mut s, q).unwrap(),
        vec![vec![
            Value::Integer(2),
            Value::Integer(1),
            Value::Integer(1),
            Value::Text("real".into())
        ]]
    );
}
