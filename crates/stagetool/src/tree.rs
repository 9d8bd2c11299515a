//! A repository tree held in memory: path -> (mode, content).

use crate::git::Git;
use crate::{Error, Result, bail};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::Stdio;

/// A git file mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mode {
    File,
    Exec,
    Symlink,
    /// A submodule entry; its data is the commit hash in hex.
    Gitlink,
}

impl Mode {
    pub fn octal(self) -> &'static str {
        match self {
            Mode::File => "100644",
            Mode::Exec => "100755",
            Mode::Symlink => "120000",
            Mode::Gitlink => "160000",
        }
    }

    pub fn from_octal(s: &str) -> Option<Mode> {
        match s {
            "100644" | "100664" => Some(Mode::File),
            "100755" => Some(Mode::Exec),
            "120000" => Some(Mode::Symlink),
            "160000" => Some(Mode::Gitlink),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub mode: Mode,
    /// File content, symlink target, or (gitlink) the commit hash.
    pub data: Vec<u8>,
}

impl Entry {
    pub fn file(data: impl Into<Vec<u8>>) -> Self {
        Entry {
            mode: Mode::File,
            data: data.into(),
        }
    }

    /// The content as text if this is a regular UTF-8 file without NUL bytes.
    pub fn text(&self) -> Option<&str> {
        if !matches!(self.mode, Mode::File | Mode::Exec) || self.data.contains(&0) {
            return None;
        }
        std::str::from_utf8(&self.data).ok()
    }
}

/// A tree: repository-relative paths (with `/`) in sorted order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    pub files: BTreeMap<String, Entry>,
}

impl Tree {
    pub fn get_text(&self, path: &str) -> Option<&str> {
        self.files.get(path).and_then(Entry::text)
    }

    /// Reads the committed tree of `rev` (all blobs through one
    /// `git cat-file --batch`). Returns the tree and the full commit hash.
    pub fn from_commit(repo: &Path, rev: &str) -> Result<(Tree, String)> {
        let git = Git::new(repo);
        let sha = git.commit_sha(rev)?;
        let listing = git.run_bytes(&["ls-tree", "-r", "-z", "--full-tree", &sha], None)?;
        let mut wanted: Vec<(String, Mode, String)> = Vec::new();
        let mut tree = Tree::default();
        for rec in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
            let rec = String::from_utf8(rec.to_vec())
                .map_err(|_| Error("non-UTF-8 path in the tree".into()))?;
            let (meta, path) = rec
                .split_once('\t')
                .ok_or_else(|| Error(format!("bad ls-tree line {rec:?}")))?;
            let mut it = meta.split(' ');
            let (mode, _kind, obj) = (it.next(), it.next(), it.next());
            let (Some(mode), Some(obj)) = (mode, obj) else {
                bail!("bad ls-tree line {rec:?}");
            };
            let mode =
                Mode::from_octal(mode).ok_or_else(|| Error(format!("unknown mode {mode}")))?;
            if mode == Mode::Gitlink {
                tree.files.insert(
                    path.to_string(),
                    Entry {
                        mode,
                        data: obj.as_bytes().to_vec(),
                    },
                );
            } else {
                wanted.push((path.to_string(), mode, obj.to_string()));
            }
        }
        let blobs = cat_blobs(&git, wanted.iter().map(|w| w.2.as_str()).collect())?;
        for ((path, mode, _), data) in wanted.into_iter().zip(blobs) {
            tree.files.insert(path, Entry { mode, data });
        }
        Ok((tree, sha))
    }

    /// Reads the work tree at `root`: the files git would track (tracked or
    /// untracked but not ignored) when `root` is a git top level, otherwise
    /// every file below `root`. `target/` and `.git/` are always skipped.
    pub fn from_worktree(root: &Path) -> Result<Tree> {
        let git = Git::new(root);
        let is_top = git
            .toplevel()
            .and_then(|t| t.canonicalize().ok())
            .is_some_and(|t| Some(t) == root.canonicalize().ok());
        let mut paths: Vec<String> = Vec::new();
        if is_top {
            let out = git.run_bytes(
                &[
                    "ls-files",
                    "-z",
                    "--cached",
                    "--others",
                    "--exclude-standard",
                ],
                None,
            )?;
            for p in out.split(|&b| b == 0).filter(|p| !p.is_empty()) {
                paths.push(String::from_utf8_lossy(p).into_owned());
            }
        } else {
            walk(root, "", &mut paths)?;
        }
        let mut tree = Tree::default();
        for p in paths {
            if p.starts_with("target/") || p.starts_with(".git/") || p == ".git" {
                continue;
            }
            let Some(entry) = read_entry(&root.join(&p))? else {
                continue; // deleted in the work tree, or not a file
            };
            tree.files.insert(p, entry);
        }
        Ok(tree)
    }

    /// Writes the tree below `dir` (which must exist). Gitlinks are skipped.
    pub fn write_to(&self, dir: &Path) -> Result<()> {
        use std::os::unix::fs::PermissionsExt;
        for (path, entry) in &self.files {
            let full = dir.join(path);
            if let Some(parent) = full.parent() {
                std::fs::create_dir_all(parent)?;
            }
            match entry.mode {
                Mode::Gitlink => {
                    std::fs::create_dir_all(&full)?;
                }
                Mode::Symlink => {
                    let target = String::from_utf8_lossy(&entry.data).into_owned();
                    std::os::unix::fs::symlink(target, &full)?;
                }
                Mode::File | Mode::Exec => {
                    std::fs::write(&full, &entry.data)?;
                    let mode = if entry.mode == Mode::Exec {
                        0o755
                    } else {
                        0o644
                    };
                    std::fs::set_permissions(&full, std::fs::Permissions::from_mode(mode))?;
                }
            }
        }
        Ok(())
    }

    /// Makes `dir` hold this tree, writing only what differs: a file whose
    /// content and mode are already right keeps its modification time, so
    /// cargo sees it unchanged. Files the tree lacks are removed; `.git`
    /// and `target` at the top are left alone.
    pub fn sync_to(&self, dir: &Path) -> Result<()> {
        let mut on_disk = Vec::new();
        if dir.exists() {
            walk(dir, "", &mut on_disk)?;
        }
        for p in on_disk.iter().filter(|p| !self.files.contains_key(*p)) {
            std::fs::remove_file(dir.join(p))?;
        }
        let mut changed = Tree::default();
        for (p, entry) in &self.files {
            let full = dir.join(p);
            let old = read_entry(&full)?;
            if old.as_ref() == Some(entry) {
                continue;
            }
            if old.is_some() {
                // A symlink is not written over, and a mode not changed.
                std::fs::remove_file(&full)?;
            }
            changed.files.insert(p.clone(), entry.clone());
        }
        changed.write_to(dir)
    }
}

/// The entry of the file or symlink at `full`, or `None` if there is none
/// (or it is a directory).
fn read_entry(full: &Path) -> Result<Option<Entry>> {
    let Ok(meta) = std::fs::symlink_metadata(full) else {
        return Ok(None);
    };
    let entry = if meta.file_type().is_symlink() {
        let target = std::fs::read_link(full)?;
        Entry {
            mode: Mode::Symlink,
            data: target.to_string_lossy().as_bytes().to_vec(),
        }
    } else if meta.is_file() {
        use std::os::unix::fs::PermissionsExt;
        let exec = meta.permissions().mode() & 0o111 != 0;
        Entry {
            mode: if exec { Mode::Exec } else { Mode::File },
            data: std::fs::read(full)?,
        }
    } else {
        return Ok(None);
    };
    Ok(Some(entry))
}

fn walk(root: &Path, rel: &str, out: &mut Vec<String>) -> Result<()> {
    let dir = if rel.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    };
    let mut names: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let child = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if rel.is_empty() && (name == ".git" || name == "target") {
            continue;
        }
        let meta = std::fs::symlink_metadata(root.join(&child))?;
        if meta.is_dir() {
            if name == ".git" {
                continue;
            }
            walk(root, &child, out)?;
        } else {
            out.push(child);
        }
    }
    Ok(())
}

/// Reads blobs by hash through one `git cat-file --batch`.
fn cat_blobs(git: &Git, shas: Vec<&str>) -> Result<Vec<Vec<u8>>> {
    if shas.is_empty() {
        return Ok(Vec::new());
    }
    let mut child = git
        .command(&["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped");
    let request: String = shas.iter().map(|s| format!("{s}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(request.as_bytes()));
    let mut reader = BufReader::new(child.stdout.take().expect("piped"));
    let mut out = Vec::with_capacity(shas.len());
    for sha in &shas {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let parts: Vec<&str> = header.split_whitespace().collect();
        if parts.len() != 3 || parts[1] != "blob" {
            bail!("git cat-file: unexpected answer {header:?} for {sha}");
        }
        let size: usize = parts[2]
            .parse()
            .map_err(|_| Error(format!("git cat-file: bad size in {header:?}")))?;
        let mut data = vec![0; size + 1];
        reader.read_exact(&mut data)?;
        data.pop(); // the newline after the content
        out.push(data);
    }
    writer
        .join()
        .map_err(|_| Error("cat-file writer panicked".into()))??;
    let status = child.wait()?;
    if !status.success() {
        bail!("git cat-file --batch failed");
    }
    Ok(out)
}
