//! `GET /api/import/formats`: the import formats and whether this server
//! takes them, so a client (the panel) can refuse an unsupported one
//! before uploading anything. The answer comes from
//! `ImportFormat::is_supported`, the rule admission itself applies.

use asadb::reservoir::ImportFormat;
use axum::Json;

/// `GET /api/import/formats`
pub async fn list() -> Json<serde_json::Value> {
    let formats: Vec<serde_json::Value> = ImportFormat::ALL
        .iter()
        .map(|f| {
            serde_json::json!({
                "format": f.as_str(),
                "supported": f.is_supported(),
                "takes_target": f.takes_target(),
            })
        })
        .collect();
    Json(serde_json::json!({ "formats": formats }))
}
