// ANCHOR: stage-03-negamax--bookdata-tree
//! The one drawing of a search tree, for every tree the book pictures.
//!
//! A chapter hands over the tree (each node's children) and how each node
//! looks ([`Look`]: the move that led to it, the text in its box, the
//! colours); a [`Style`] says how the tree is laid out. Leaves are set one
//! after the other along one axis, plies along the other; a parent sits
//! centred on its children, or level with its first child. Drawn
//! sideways, the root on the left, a tree keeps its text legible however
//! many leaves it has; drawn with the root on top, it reads like the trees
//! of textbooks.

use cozy_chess::Board;
use engine::board::{make_move, move_to_uci};
use engine::notes::TreeTrace;

use super::Svg;

/// How a tree is laid out, in pixels.
pub struct Style {
    /// Root on the left, one column per ply (else root on top, one row
    /// per ply).
    pub sideways: bool,
    /// A parent sits level with its first child (else centred on all).
    pub at_first_child: bool,
    /// Where the first leaf's box starts, along the leaves' axis, and the
    /// step from leaf to leaf.
    pub leaf_start: f64,
    pub leaf_gap: f64,
    /// Where the root's box starts, along the plies' axis, and the step
    /// from ply to ply.
    pub ply_start: f64,
    pub ply_gap: f64,
    pub box_w: f64,
    pub box_h: f64,
    /// The narrowest the picture may be (room for its notes).
    pub min_width: f64,
    pub font: u32,
    pub edge_width: f64,
    /// Edges leave a parent this far past its box and end this far before
    /// the child's, along the plies' axis.
    pub edge_gaps: (f64, f64),
    /// Edges run along the parent's row, then down the child's column.
    pub elbows: bool,
    /// Where a node's move is written (see [`Moves`]).
    pub moves: Moves,
    /// The baseline of the text in a box, below the box's top.
    pub label_y: f64,
    /// Room below the lowest box (for texts under the boxes).
    pub below: f64,
    /// The notes under the tree: the first's baseline below the tree, the
    /// step from one to the next, the room they take below the tree
    /// before the last step, and their own attributes.
    pub notes: (f64, f64, f64, &'static str),
}

/// Where a node's move is written.
pub enum Moves {
    /// Left of its box, ending this far before it.
    Beside(f64),
    /// Over its box, this far above it.
    Above(f64),
    /// In its box, on the left; the label then goes on the right.
    Inside,
}

/// How one node looks.
#[derive(Clone, Debug, Default)]
pub struct Look {
    /// The move that led here (UCI), or whatever names the node.
    pub mv: String,
    pub mv_ink: &'static str,
    /// The text in the box.
    pub label: String,
    pub fill: &'static str,
    pub ink: &'static str,
    pub border: &'static str,
    pub stroke: f64,
    /// The box's dashes (` stroke-dasharray="…"`), if any.
    pub dash: &'static str,
    /// The edge from the parent: its colour and dashes.
    pub edge: &'static str,
    pub edge_dash: &'static str,
    /// A text under the box and its colour.
    pub under: Option<(String, &'static str)>,
}

/// Dashes of a node that was never searched.
pub const DASHED: &str = r#" stroke-dasharray="4 3""#;

/// A tree laid out.
pub struct Tree<'a> {
    style: &'a Style,
    children: Vec<Vec<usize>>,
    /// The centre of each node's box along the leaves' axis.
    along: Vec<f64>,
    ply: Vec<usize>,
    leaves: usize,
}

impl<'a> Tree<'a> {
    /// Lay out the tree whose node `i` has the children `children[i]`
    /// (node 0 is the root).
    pub fn new(style: &'a Style, children: Vec<Vec<usize>>) -> Tree<'a> {
        let n = children.len();
        let mut tree = Tree {
            style,
            children,
            along: vec![0.0; n],
            ply: vec![0; n],
            leaves: 0,
        };
        tree.place(0, 0);
        tree
    }

    fn place(&mut self, index: usize, ply: usize) {
        self.ply[index] = ply;
        let s = self.style;
        let here = s.leaf_start + self.box_along() / 2.0 + self.leaves as f64 * s.leaf_gap;
        let children = self.children[index].clone();
        if children.is_empty() {
            self.along[index] = here;
            self.leaves += 1;
            return;
        }
        for &child in &children {
            self.place(child, ply + 1);
        }
        let (first, last) = (
            self.along[children[0]],
            self.along[children[children.len() - 1]],
        );
        self.along[index] = if s.at_first_child {
            here
        } else {
            (first + last) / 2.0
        };
    }

    /// The box's extent along the leaves' axis and along the plies'.
    fn box_along(&self) -> f64 {
        if self.style.sideways {
            self.style.box_h
        } else {
            self.style.box_w
        }
    }

    fn box_across(&self) -> f64 {
        if self.style.sideways {
            self.style.box_w
        } else {
            self.style.box_h
        }
    }

    /// Where node `index`'s box starts along the plies' axis.
    fn ply_at(&self, index: usize) -> f64 {
        self.style.ply_start + self.ply[index] as f64 * self.style.ply_gap
    }

    /// The top left corner of node `index`'s box.
    pub fn corner(&self, index: usize) -> (f64, f64) {
        let (along, across) = (
            self.along[index] - self.box_along() / 2.0,
            self.ply_at(index),
        );
        if self.style.sideways {
            (across, along)
        } else {
            (along, across)
        }
    }

    /// The picture's width, and where the tree ends at the bottom.
    fn extent(&self) -> (f64, f64) {
        let s = self.style;
        let last_leaf = s.leaf_start + (self.leaves.max(1) - 1) as f64 * s.leaf_gap;
        let leaf_end = last_leaf + self.box_along();
        let deepest = self.ply.iter().copied().max().unwrap_or(0);
        let ply_end = s.ply_start + deepest as f64 * s.ply_gap + self.box_across();
        let (width, bottom) = if s.sideways {
            (ply_end + s.ply_start, leaf_end)
        } else {
            (leaf_end + s.leaf_start, ply_end)
        };
        (width.max(s.min_width), bottom + s.below)
    }

    pub fn width(&self) -> f64 {
        self.extent().0
    }

    /// Where the tree ends at the bottom, the room below it included.
    pub fn bottom(&self) -> f64 {
        self.extent().1
    }

    /// A picture for this tree and `notes` lines under it, nothing drawn yet.
    pub fn open(&self, notes: usize) -> Svg {
        let (width, bottom) = self.extent();
        let (_, step, room, _) = self.style.notes;
        Svg::new(width, bottom + room + step * notes as f64, self.style.font)
    }

    /// Draw the edges and the nodes, each as `looks` says.
    pub fn draw(&self, svg: &mut Svg, looks: &[Look]) {
        let s = self.style;
        // Edges first, so the boxes cover their ends.
        for (index, children) in self.children.iter().enumerate() {
            for &child in children {
                let from = self.ply_at(index) + self.box_across() + s.edge_gaps.0;
                let to = self.ply_at(child) - s.edge_gaps.1;
                let (a, b) = (self.along[index], self.along[child]);
                let look = &looks[child];
                if s.elbows {
                    svg.push(format_args!(
                        r##"<path d="M {from:.1} {a:.1} H {:.1} V {b:.1} H {to:.1}" fill="none" stroke="{}" stroke-width="{}"/>"##,
                        to - 11.0,
                        look.edge,
                        s.edge_width
                    ));
                } else {
                    let ((x1, y1), (x2, y2)) = if s.sideways {
                        ((from, a), (to, b))
                    } else {
                        ((a, from), (b, to))
                    };
                    svg.push(format_args!(
                        r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="{}"{}/>"##,
                        look.edge, s.edge_width, look.edge_dash
                    ));
                }
            }
        }
        for (index, look) in looks.iter().enumerate() {
            self.node(svg, index, look);
        }
    }

    fn node(&self, svg: &mut Svg, index: usize, look: &Look) {
        let s = self.style;
        let (left, top) = self.corner(index);
        let halo = format!(
            r##" font-family="monospace" font-size="{}" fill="{}" stroke="white" stroke-width="3" paint-order="stroke""##,
            s.font, look.mv_ink
        );
        match s.moves {
            _ if look.mv.is_empty() => {}
            Moves::Beside(gap) => svg.push(format_args!(
                r##"<text x="{:.1}" y="{:.1}" text-anchor="end"{halo}>{}</text>"##,
                left - gap,
                top + s.box_h / 2.0 - 4.0,
                look.mv
            )),
            Moves::Above(gap) => svg.push(format_args!(
                r##"<text x="{:.1}" y="{:.1}" text-anchor="middle"{halo}>{}</text>"##,
                left + s.box_w / 2.0,
                top - gap,
                look.mv
            )),
            Moves::Inside => {}
        }
        svg.push(format_args!(
            r##"<rect x="{left:.1}" y="{top:.1}" width="{}" height="{}" rx="4" fill="{}" stroke="{}" stroke-width="{}"{}/>"##,
            s.box_w, s.box_h, look.fill, look.border, look.stroke, look.dash
        ));
        let y = top + s.label_y;
        if let Moves::Inside = s.moves {
            svg.push(format_args!(
                r##"<text x="{:.1}" y="{y:.1}" font-family="monospace" fill="{}">{}</text>"##,
                left + 6.0,
                look.ink,
                look.mv
            ));
            svg.push(format_args!(
                r##"<text x="{:.1}" y="{y:.1}" text-anchor="end" fill="{}">{}</text>"##,
                left + s.box_w - 6.0,
                look.ink,
                look.label
            ));
        } else {
            svg.push(format_args!(
                r##"<text x="{:.1}" y="{y:.1}" text-anchor="middle" fill="{}">{}</text>"##,
                left + s.box_w / 2.0,
                look.ink,
                look.label
            ));
        }
        if let Some((text, ink)) = &look.under {
            svg.push(format_args!(
                r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="12" fill="{ink}">{text}</text>"##,
                left + s.box_w / 2.0,
                top + s.box_h + 14.0
            ));
        }
    }

    /// The notes under the tree.
    pub fn notes(&self, svg: &mut Svg, notes: &[&str]) {
        let (_, bottom) = self.extent();
        let (first, step, _, attrs) = self.style.notes;
        let x = if self.style.sideways {
            self.style.ply_start
        } else {
            self.style.leaf_start
        };
        svg.notes((x, bottom + first), step, attrs, notes);
    }

    /// The whole picture: the tree drawn as `looks` says, `notes` under it.
    pub fn picture(&self, looks: &[Look], notes: &[&str]) -> String {
        let mut svg = self.open(notes.len());
        self.draw(&mut svg, looks);
        self.notes(&mut svg, notes);
        svg.end()
    }
}

/// The children of every node of `trace`.
pub fn children(trace: &TreeTrace) -> Vec<Vec<usize>> {
    trace.nodes.iter().map(|n| n.children.clone()).collect()
}

/// The parent of every node (the root is its own).
pub fn parents(children: &[Vec<usize>]) -> Vec<usize> {
    let mut parent = vec![0; children.len()];
    for (index, below) in children.iter().enumerate() {
        for &child in below {
            parent[child] = index;
        }
    }
    parent
}

/// For each node of `a`, the node of `b` reached by the same moves, if
/// `b` searched it: how two searches of one position line up.
pub fn matching(a: &TreeTrace, b: &TreeTrace) -> Vec<Option<usize>> {
    let mut found = vec![None; a.nodes.len()];
    let mut stack = vec![(0usize, 0usize)];
    while let Some((x, y)) = stack.pop() {
        found[x] = Some(y);
        for &child in &a.nodes[x].children {
            let mv = a.nodes[child].mv;
            if let Some(&other) = b.nodes[y].children.iter().find(|&&c| b.nodes[c].mv == mv) {
                stack.push((child, other));
            }
        }
    }
    found
}

/// The node of `trace` reached from the root by `path`, moves as
/// [`boards`] writes them.
pub fn node_at(trace: &TreeTrace, moves: &[String], path: &[&str]) -> Option<usize> {
    let mut index = 0;
    for text in path {
        let children = &trace.nodes[index].children;
        index = *children.iter().find(|&&c| moves[c] == *text)?;
    }
    Some(index)
}

/// The board at every node of `trace`, and the move that led to it as
/// text (a node reached by no move keeps its parent's board, and no text).
pub fn boards(trace: &TreeTrace, root: &Board) -> (Vec<Board>, Vec<String>) {
    let mut boards = vec![root.clone(); trace.nodes.len()];
    let mut moves = vec![String::new(); trace.nodes.len()];
    // A child is always recorded after its parent.
    for (index, node) in trace.nodes.iter().enumerate() {
        for &child in &node.children {
            boards[child] = boards[index].clone();
            if let Some(mv) = trace.nodes[child].mv {
                moves[child] = move_to_uci(&boards[index], mv);
                boards[child] = make_move(&boards[index], mv);
            }
        }
    }
    (boards, moves)
}
// ANCHOR_END: stage-03-negamax--bookdata-tree
