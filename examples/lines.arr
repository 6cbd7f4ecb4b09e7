// lines.arr — the points of a set of line segments (Elsman & Larsen,
// "Efficient translation of certain irregular data-parallel array
// comprehensions", §5): each line expands into points_in_line(l) points,
// one array of all points in line order. Futhark's 1-based tuple fields
// .1/.2 are .0/.1 here.
type point = (int, int);
type line = (point, point);

def int points_in_line(line l) {
  let ((x1, y1), (x2, y2)) = l;
  return 1 + max(abs(x2 - x1), abs(y2 - y1));
}

def int compare(int v1, int v2) = if v2 > v1 then 1 else if v1 > v2 then -1 else 0;

def float slope(point p1, point p2) =
  if p2.0 == p1.0 then (if p2.1 > p1.1 then 1.0f else -1.0f)
  else float(p2.1 - p1.1) / abs(float(p2.0 - p1.0));

def point get_point_in_line(line l, int i) {
  let (p1, p2) = l;
  return if abs(p1.0 - p2.0) > abs(p1.1 - p2.1)
         then (let dir = compare(p1.0, p2.0) in
               let sl = slope(p1, p2) in
               (p1.0 + dir * i, p1.1 + int(round(sl * float(i)))))
         else (let dir = compare(p1.1, p2.1) in
               let sl = slope((p1.1, p1.0), (p2.1, p2.0)) in
               (p1.0 + int(round(sl * float(i))), p1.1 + i * dir));
}

// == test
// in:  [((0, 0), (4, 2)), ((0, 0), (0, 2)), ((5, 5), (3, 0))]
// out: [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (0, 0), (0, 1), (0, 2),
//       (5, 5), (5, 4), (4, 3), (4, 2), (3, 1), (3, 0)]
// in:  []
// out: []
//
// == bench
// sizes: n=10^5
// gen:   [n]:0..99
export point[[*]] lines(line[[*]] ls) =
  [get_point_in_line(l, i) | l <- ls, i <- [0..<points_in_line(l)]];
