// QA pending (.qa/bugs.md QA-6): a let before the first binding (docs/language.md allows it).
//
//   arrc run qa_leadlet.arr -e f "[1, 2]"  ==> [3, 4]
export int[[*]] f(int[[*]] xs) = [x + k | let k = 2, x <- xs];
