//! The repository's own manifests read and write back byte for byte: what
//! `cb2026 stages --record` and `arena record` would write for the values a
//! manifest holds is exactly what the file holds, comments and all.

use meta::MatchTable;
use meta::manifest::{parse, parse_file_name, record_bench, record_match};
use std::path::Path;

#[test]
fn the_manifests_write_back_unchanged() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../stages");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("stages/ exists") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if parse_file_name(&name).is_none() {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let m = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(nodes) = m.bench.nodes {
            let again = record_bench(
                &text,
                nodes,
                &m.bench.positions,
                m.bench.vs_previous.as_ref(),
            );
            assert_eq!(again.as_deref(), Ok(text.as_str()), "{name}: [bench]");
        }
        let named = m.named_records().map(|(table, _)| table);
        let nets = m.net_records().map(|(table, _)| table);
        for table in [MatchTable::Sprt, MatchTable::Reliability]
            .into_iter()
            .chain(named)
            .chain(nets)
        {
            if let Some(record) = table.of(&m) {
                let again = record_match(&text, &table, record);
                assert_eq!(
                    again.as_deref(),
                    Ok(text.as_str()),
                    "{name}: [{}]",
                    table.name()
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 0, "no manifests in {}", dir.display());
}
