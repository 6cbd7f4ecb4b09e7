// part of err_cycle.arr
import "cycle_b";
def int a() = 1;
