// arrc test: one line per case, PASS/FAIL/SKIP, expected errors with their
// position, a tolerance, entry:, tags skipped with --exclude, the summary and
// the exit status (1 when a case failed, 0 when all passed).
// RUN: %arrc test %s --exclude slow > %t.out; test $? -eq 1
// RUN: FileCheck %s < %t.out
// RUN: %arrc test %s -e six | FileCheck %s --check-prefix=ONLY
// RUN: %arrc test %s -e rows -j 1 --exclude slow | FileCheck %s --check-prefix=ROWS

// == test
// in:  [1.0, 2.0] [3.0, 4.0]
// out: 11.0
// in:  [1.0] [1.0, 2.0]
// error: zip of arrays of unequal sizes
// in:  [0.1] [1.0]
// out: 0.2
//
// == test
// tolerance: 1.0
// in: [0.1] [1.0]
// out: 0.2
// in: [1.0] [1.0]
// error: unequal
//
// == test
// tags: slow gpu
// in: [2.0] [2.0]
// out: 4.0
export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);

// == test
// in:  2 3
// out: [[0, 1, 2],
//       [1, 2, 3]]
// in:  0 1
// out: []
// == test
// entry: rows both
// in: 1 2
// out: [[0, 1]]
export int[[*,*]] rows(int m, int n) = [[i + j | j <- iota(n)] | i <- iota(m)];
export int[[*,*]] both(int m, int n) = [[i + j | j <- iota(n)] | i <- iota(m)];

// == test
// in:
// out: 6
export int six() = 6;

// CHECK: PASS {{.*}}test-command.arr:{{[0-9]+}}: dot [1.0, 2.0] [3.0, 4.0]
// CHECK-NEXT: PASS {{.*}}test-command.arr:{{[0-9]+}}: dot [1.0] [1.0, 2.0] (error at test-command.arr:{{[0-9]+}}:55)
// CHECK-NEXT: FAIL {{.*}}test-command.arr:{{[0-9]+}}: dot [0.1] [1.0]
// CHECK-NEXT:     expected: 0.2
// CHECK-NEXT:     got:      0.1
// CHECK-NEXT: PASS {{.*}}test-command.arr:{{[0-9]+}}: dot [0.1] [1.0]
// CHECK-NEXT: FAIL {{.*}}test-command.arr:{{[0-9]+}}: dot [1.0] [1.0]
// CHECK-NEXT:     expected an error containing "unequal"
// CHECK-NEXT:     got:      1.0
// CHECK-NEXT: SKIP {{.*}}test-command.arr:{{[0-9]+}}: dot [2.0] [2.0] (tag slow)
// CHECK-NEXT: PASS {{.*}}: rows 2 3
// CHECK-NEXT: PASS {{.*}}: rows 0 1
// CHECK-NEXT: PASS {{.*}}: rows 1 2
// CHECK-NEXT: PASS {{.*}}: both 1 2
// CHECK-NEXT: PASS {{.*}}: six
// CHECK-NEXT: 8 passed, 2 failed, 1 skipped
// ONLY: PASS {{.*}}: six
// ONLY-NEXT: 1 passed, 0 failed
// ROWS: PASS {{.*}}: rows 2 3
// ROWS-NEXT: PASS {{.*}}: rows 0 1
// ROWS-NEXT: PASS {{.*}}: rows 1 2
// ROWS-NEXT: 3 passed, 0 failed
