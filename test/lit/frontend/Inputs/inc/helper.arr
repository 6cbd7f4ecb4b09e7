def int helper_one() = 1;
