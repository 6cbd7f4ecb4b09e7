// Imported by qa_more.arr.
def int triple(int x) = 3 * x;
