// QA held-out (was .qa/bugs.md QA-6, fixed): a let before the first binding (docs/language.md allows it).
//
//   arrc run qa_leadlet.arr -e f "[1, 2]"  ==> [3, 4]
export int[[*]] f(int[[*]] xs) = [x + k | let k = 2, x <- xs];
