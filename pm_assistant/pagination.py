"""Page-number pagination shared by the API and the pages."""
from rest_framework.pagination import PageNumberPagination


class PagePagination(PageNumberPagination):
    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = 100
