// part of err_cycle.arr
import "cycle_a";
def int b() = 2;
