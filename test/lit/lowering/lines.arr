// The lines example of Elsman & Larsen §5: one expand, sized by an
// inlined function of the outer element.
// RUN: %arrc --emit=lowered %s | FileCheck %s
type point = (int, int);
type line = (point, point);
def int points_in_line(line l) {
  let ((x1, y1), (x2, y2)) = l;
  return 1 + max(abs(x2 - x1), abs(y2 - y1));
}
def point get_point_in_line(line l, int i) {
  let ((x1, y1), (x2, y2)) = l;
  return if abs(x2 - x1) > abs(y2 - y1) then (x1 + i * (if x2 > x1 then 1 else -1), y1)
         else (x1, y1 + i * (if y2 > y1 then 1 else -1));
}
export point[[*]] points(line[[*]] lines) =
  [get_point_in_line(l, i) | l <- lines, i <- [0..<points_in_line(l)]];
// CHECK-LABEL: export points(lines: ((int, int), (int, int)){{\[\[\*\]\]}} = (
// CHECK: // comprehension 16:3: expand (generator 16:42)
// CHECK-NEXT: = expand (
// CHECK: size {
// CHECK: max(
// CHECK-NOT: fallback
