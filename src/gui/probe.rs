//! The games each engine of the command line declares, asked once when the server starts,
//! so the page offers an engine only for those: its `UCI_Variant` values (ply's protocol
//! lists its games there; Fairy-Stockfish lists ply's games once it has read the variants
//! file), and chess for a plain UCI engine, which has no such option. Only games ply knows
//! and, for Fairy-Stockfish, the notation adapter translates, are kept.

use std::path::Path;

use super::adapter;
use super::engine::{self, Process};
use crate::client::{Dialect, EngineSpec};
use crate::protocol::command::Command;

/// What the probe found: the games, or why there are none.
#[derive(Clone, Debug, Default)]
pub struct Declared {
    pub games: Vec<&'static str>,
    /// Why the engine is offered for no game (it could not start, or declares none).
    pub note: Option<String>,
}

/// The games `def` declares.
pub async fn declared(def: &EngineSpec, variants_file: Option<&Path>) -> Declared {
    match ask(def, variants_file).await {
        Ok(games) if games.is_empty() => Declared {
            games,
            note: Some(format!("{} declares none of ply's games", def.name)),
        },
        Ok(games) => Declared { games, note: None },
        Err(e) => Declared {
            games: Vec::new(),
            note: Some(format!("{}: {e}", def.name)),
        },
    }
}

async fn ask(def: &EngineSpec, variants_file: Option<&Path>) -> Result<Vec<&'static str>, String> {
    let mut p = Process::start(def).map_err(|e| format!("cannot start: {e}"))?;
    let result = async {
        let mut hello = engine::handshake(&mut p.stdin, &mut p.lines).await?;
        let dialect = def.dialect.after_handshake(&hello.id_name);
        if dialect == Dialect::Fsf
            && let Some(file) = variants_file
        {
            // Fairy-Stockfish lists the variants of a file after reading it.
            let path = file.display().to_string();
            let set = Command::set_option("VariantPath", Some(&path));
            engine::write_command(&mut p.stdin, &set)
                .await
                .map_err(|e| e.to_string())?;
            hello = engine::handshake(&mut p.stdin, &mut p.lines).await?;
        }
        Ok(games_of(dialect, hello.variants.as_deref()))
    }
    .await;
    p.end().await;
    result
}

/// The games of an engine of `dialect` with these `UCI_Variant` values (`None`: no such
/// option), in the order of ply's registry.
pub fn games_of(dialect: Dialect, variants: Option<&[String]>) -> Vec<&'static str> {
    let declared = |g: &str| match variants {
        Some(vs) => vs.iter().any(|v| v.eq_ignore_ascii_case(g)),
        None => dialect == Dialect::Uci && g == "chess",
    };
    let translatable = adapter::games_of(dialect);
    crate::games::NAMES
        .iter()
        .copied()
        .filter(|g| declared(g))
        .filter(|g| translatable.as_ref().is_none_or(|t| t.contains(g)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_come_from_uci_variant_or_are_chess_for_plain_uci() {
        let vars = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(games_of(Dialect::Uci, None), vec!["chess"]);
        assert_eq!(games_of(Dialect::Ply, None), Vec::<&str>::new());
        let fsf = vars(&["chess", "shogi", "tictactoe", "connect4"]);
        assert_eq!(
            games_of(Dialect::Fsf, Some(&fsf)),
            vec!["tictactoe", "connect4"]
        );
        let ply = vars(crate::games::NAMES);
        assert_eq!(
            games_of(Dialect::Ply, Some(&ply)),
            crate::games::NAMES.to_vec()
        );
        assert_eq!(
            games_of(Dialect::Uci, Some(&vars(&["Chess", "atomic"]))),
            vec!["chess"]
        );
    }
}
