// QA pending (.qa/bugs.md QA-4): a negative size must be a positioned runtime error.
//
//   arrc run qa_negsize.arr -e newneg -- -1  ==> error: negative size -1
//   arrc run qa_negsize.arr -e unf -- -1 -2 "[1, 2]"  ==> error: negative size
export int[[*]] newneg(int n) = new int[[n]];
export int[[*,*]] unf(int m, int n, int[[*]] xs) = unflatten(m, n, xs);
