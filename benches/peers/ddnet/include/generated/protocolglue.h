// Stand-in for DDNet's generated header: the one function snapshot.cpp
// calls, for 0.7 ("sixup") builders only, which the comparison never uses.
#pragma once
int Obj_SixToSeven(int Type);
