import "inc/helper";
def int uses() = helper_one();
