//! Thin helpers around the `git` command line.

use crate::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A git repository (any directory inside its work tree).
#[derive(Debug, Clone)]
pub struct Git {
    pub dir: PathBuf,
    /// Extra environment for every command (e.g. `GIT_INDEX_FILE`).
    pub env: Vec<(String, String)>,
}

impl Git {
    pub fn new(dir: &Path) -> Self {
        Git {
            dir: dir.to_path_buf(),
            env: Vec::new(),
        }
    }

    pub fn with_env(&self, key: &str, value: &str) -> Self {
        let mut g = self.clone();
        g.env.push((key.to_string(), value.to_string()));
        g
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new("git");
        c.current_dir(&self.dir).args(args);
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c
    }

    /// Runs git and returns its stdout (raw bytes); fails with its stderr.
    pub fn run_bytes(&self, args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>> {
        let mut cmd = self.command(args);
        cmd.stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .map_err(|e| Error(format!("cannot run git: {e}")))?;
        let writer = match input {
            Some(data) => {
                let mut stdin = child.stdin.take().expect("piped stdin");
                let data = data.to_vec();
                Some(std::thread::spawn(move || stdin.write_all(&data)))
            }
            None => None,
        };
        let out = child.wait_with_output()?;
        if let Some(w) = writer {
            w.join()
                .map_err(|_| Error("git stdin writer panicked".into()))??;
        }
        if !out.status.success() {
            return Err(Error(format!(
                "git {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(out.stdout)
    }

    /// Runs git and returns its stdout as trimmed text.
    pub fn run(&self, args: &[&str]) -> Result<String> {
        let out = self.run_bytes(args, None)?;
        Ok(String::from_utf8_lossy(&out).trim().to_string())
    }

    pub fn run_input(&self, args: &[&str], input: &[u8]) -> Result<String> {
        let out = self.run_bytes(args, Some(input))?;
        Ok(String::from_utf8_lossy(&out).trim().to_string())
    }

    /// The full hash of a commit-ish.
    pub fn commit_sha(&self, rev: &str) -> Result<String> {
        self.run(&[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ])
        .map_err(|_| Error(format!("`{rev}` is not a commit in {}", self.dir.display())))
    }

    /// The top level of the work tree that contains `dir`, if any.
    pub fn toplevel(&self) -> Option<PathBuf> {
        self.run(&["rev-parse", "--show-toplevel"])
            .ok()
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    }
}

/// The repository root for a directory: git's top level, or the directory.
pub fn repo_root(dir: &Path) -> PathBuf {
    Git::new(dir)
        .toplevel()
        .unwrap_or_else(|| dir.to_path_buf())
}
