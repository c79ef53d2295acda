//! The operator panel: a static single-page app compiled into the binary
//! (`include_str!` of `server/assets/`, no build step) and served at `/`
//! (alias `/panel`), `/panel.js` and `/panel.css`, with its favicon
//! (`/favicon.ico`) and completion chime (`/panel.wav`), both made in code
//! (`panel_media`).
//!
//! Invariants:
//! - The files are constants: they carry no data, so a `GET` (or `HEAD`) of
//!   these paths is the one thing answered without the token. Every other
//!   method on them goes through `protect` (the token check), so a caller
//!   without the token still learns nothing but 401 there; everything the
//!   page shows comes from the token-guarded API, fetched by the browser
//!   with `Authorization: Bearer …`.
//! - The page reaches nothing beyond its own origin: no external URL in any
//!   file (a unit test and the e2e test check), and the
//!   `Content-Security-Policy` allows scripts, styles, images, media and
//!   fetches from `'self'` only, no inline script or style, no framing, no
//!   form submission. The script inserts values with `textContent` only.
//! - `Cache-Control: no-store`, so a browser never runs a panel older than
//!   the binary it talks to; and every text file carries the same version
//!   marker ([`PANEL_VERSION`], also sent as `X-AsaDB-Panel-Version`), which
//!   the script compares with the page's, so a mixed set is detected.

use axum::Router;
use axum::http::{HeaderName, header};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;

use crate::error::Error;

/// The version marker every text file of the panel carries, as
/// `asadb-panel-version: <this>` (a test checks they agree).
pub const PANEL_VERSION: &str = "2";

/// One embedded file.
#[derive(Clone, Copy, Debug)]
struct Asset {
    body: fn() -> &'static [u8],
    content_type: &'static str,
}

const PAGE: Asset = Asset {
    body: || include_str!("../assets/panel.html").as_bytes(),
    content_type: "text/html; charset=utf-8",
};
const SCRIPT: Asset = Asset {
    body: || include_str!("../assets/panel.js").as_bytes(),
    content_type: "text/javascript; charset=utf-8",
};
const STYLE: Asset = Asset {
    body: || include_str!("../assets/panel.css").as_bytes(),
    content_type: "text/css; charset=utf-8",
};
const ICON: Asset = Asset { body: crate::panel_media::favicon, content_type: "image/x-icon" };
const CHIME: Asset = Asset { body: crate::panel_media::chime, content_type: "audio/wav" };

/// Every path served without the token, and what it serves.
const ROUTES: [(&str, Asset); 6] = [
    ("/", PAGE),
    ("/panel", PAGE),
    ("/panel.js", SCRIPT),
    ("/panel.css", STYLE),
    ("/favicon.ico", ICON),
    ("/panel.wav", CHIME),
];

/// Same-origin script, style, images, media and fetches only; nothing
/// inline, no plugins, no frames, no form submission, no `<base>`
/// rewriting.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; connect-src 'self'; img-src 'self'; media-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

impl Asset {
    fn response(self) -> Response {
        (
            [
                (header::CONTENT_TYPE, self.content_type),
                (header::CACHE_CONTROL, "no-store"),
                (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                (header::REFERRER_POLICY, "no-referrer"),
                (header::X_FRAME_OPTIONS, "DENY"),
                (HeaderName::from_static("x-asadb-panel-version"), PANEL_VERSION),
            ],
            (self.body)(),
        )
            .into_response()
    }

    /// The file as text (the text assets; tests).
    #[cfg(test)]
    fn text(self) -> &'static str {
        std::str::from_utf8((self.body)()).expect("a text asset")
    }
}

/// The panel's routes. `protect` wraps what still needs the token: every
/// method but `GET`/`HEAD` on the panel's paths (answered 405 once the
/// token is right). The `GET` routes are added after `protect` ran, so
/// they stay open.
pub fn routes<S>(protect: impl Fn(MethodRouter<S>) -> MethodRouter<S>) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    ROUTES.iter().fold(Router::new(), |router, &(path, asset)| {
        let refused = MethodRouter::new().fallback(|| async { Error::MethodNotAllowed });
        router.route(path, protect(refused).get(move || async move { asset.response() }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The element ids the script looks up with `byId("…")`.
    fn ids_used_by_script() -> Vec<&'static str> {
        SCRIPT.text().split("byId(\"").skip(1).filter_map(|rest| rest.split('"').next()).collect()
    }

    #[test]
    fn every_element_the_script_needs_is_in_the_page() {
        let ids = ids_used_by_script();
        assert!(ids.len() > 30, "the script finds its elements with byId: {ids:?}");
        for id in ids {
            assert!(PAGE.text().contains(&format!("id=\"{id}\"")), "no element with id {id:?}");
        }
    }

    #[test]
    fn nothing_points_beyond_the_origin() {
        for (path, asset) in ROUTES.into_iter().filter(|(_, a)| a.content_type.starts_with("text/"))
        {
            for scheme in ["http://", "https://", "//cdn", "ws://", "wss://"] {
                assert!(!asset.text().contains(scheme), "{path} mentions {scheme}");
            }
        }
        assert!(PAGE.text().contains("<script src=\"/panel.js\" defer></script>"));
        assert!(PAGE.text().contains("<link rel=\"stylesheet\" href=\"/panel.css\">"));
        // No inline script or style: the CSP would block them.
        assert_eq!(PAGE.text().matches("<script").count(), 1);
        assert!(!PAGE.text().contains("<style") && !PAGE.text().contains(" style="));
        // No inline event handlers (` onclick=` and the like) either.
        for (at, _) in PAGE.text().match_indices(" on") {
            let rest = &PAGE.text()[at + 3..];
            let name_len = rest.bytes().take_while(u8::is_ascii_lowercase).count();
            assert!(
                name_len == 0 || !rest[name_len..].starts_with('='),
                "inline handler at byte {at}"
            );
        }
    }

    #[test]
    fn the_script_never_parses_data_as_html() {
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("] {
            assert!(!SCRIPT.text().contains(sink), "panel.js uses {sink}");
        }
        assert!(!SCRIPT.text().contains("new Function"));
    }

    /// Brackets balance outside strings and comments: a cheap guard
    /// against a truncated or mangled script (the script has no regex
    /// literals, so `/` only starts comments or divides).
    #[test]
    fn script_brackets_balance() {
        let mut stack = Vec::new();
        let b = SCRIPT.text().as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    i += 2;
                    while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                        i += 1;
                    }
                    i += 1;
                }
                q @ (b'"' | b'\'' | b'`') => {
                    i += 1;
                    while i < b.len() && b[i] != q {
                        assert!(q == b'`' || b[i] != b'\n', "unterminated string at byte {i}");
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                }
                open @ (b'(' | b'[' | b'{') => stack.push((open, i)),
                close @ (b')' | b']' | b'}') => {
                    let (open, at) = stack.pop().unwrap_or_else(|| panic!("stray {close} at {i}"));
                    let want = match open {
                        b'(' => b')',
                        b'[' => b']',
                        _ => b'}',
                    };
                    assert_eq!(close, want, "{} at {at} closed at {i}", open as char);
                }
                _ => {}
            }
            i += 1;
        }
        assert!(stack.is_empty(), "unclosed brackets at {stack:?}");
    }

    #[test]
    fn the_page_carries_its_markers_and_the_token_hint() {
        for marker in ["id=\"tab-console\"", "id=\"tab-import\"", "id=\"tab-jobs\"", "panel.token"]
        {
            assert!(PAGE.text().contains(marker), "page lacks {marker}");
        }
    }

    #[test]
    fn every_text_file_carries_the_same_version_marker() {
        const MARK: &str = "asadb-panel-version: ";
        let mut seen = 0;
        for (path, asset) in ROUTES.into_iter().filter(|(_, a)| a.content_type.starts_with("text/"))
        {
            let text = asset.text();
            let marks: Vec<&str> = text
                .match_indices(MARK)
                .map(|(at, _)| {
                    let rest = &text[at + MARK.len()..];
                    rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                        .next()
                        .unwrap_or_default()
                })
                .collect();
            assert!(!marks.is_empty(), "{path} has no version marker");
            assert!(
                marks.iter().all(|m| *m == PANEL_VERSION),
                "{path}: {marks:?} vs {PANEL_VERSION}"
            );
            seen += 1;
        }
        assert_eq!(seen, 4, "page (twice), script and style");
    }
}
