def int lib_twice(int x) = 2 * x;
